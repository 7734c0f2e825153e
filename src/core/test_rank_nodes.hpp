// TEST-ONLY: GPUBARRIER_TEST_RANKS_AS_NODES=1 makes a run under mpirun/srun treat every rank as a
// node of its own (issue 18: multi-node methods tested on one machine). The run then counts as
// many nodes as ranks, names each rank's node `<node>-rank<r>`, refuses what needs one node (peer
// memory) as it would across real nodes, and writes `<system>-simulated` in the system column.
// Which GPU a rank drives still follows its real local rank. NCCL's transport is the caller's to
// choose (the tests set NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=Socket).
#pragma once

namespace gb {

// Whether GPUBARRIER_TEST_RANKS_AS_NODES is 1 (announced on stderr once).
bool test_ranks_as_nodes();

}  // namespace gb
