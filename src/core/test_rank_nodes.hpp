// TEST-ONLY: GPUBARRIER_TEST_RANKS_AS_NODES=<k> makes a run under mpirun/srun treat every k
// consecutive ranks as one node (issue 18: multi-node methods tested on one machine): =1 makes
// every rank a node of its own, =2 with 4 ranks makes 2 "nodes" of 2 ranks (2 GPUs) each. The
// run then counts ceil(ranks / k) nodes, names each rank's node `<node>-rank<r>` (k = 1) or
// `<node>-node<r / k>` (k > 1), refuses what needs one node (the single-node device barriers'
// peer memory) as it would across real nodes, builds node-local peer memory only inside each
// simulated node, and writes `<system>-simulated` in the system column. Which GPU a rank drives
// still follows its real local rank. NCCL's transport is the caller's to choose (the tests set
// NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=Socket). 0 or unset: off.
#pragma once

#include <optional>

namespace gb {

// Ranks per simulated node from GPUBARRIER_TEST_RANKS_AS_NODES; 0 when off (announced on
// stderr once). Throws UsageError for a value that is not a count.
int test_ranks_per_node();

// The setting's value as a count: 0 for null or "0", k for "k" (k >= 1); nullopt otherwise.
std::optional<int> parse_ranks_per_node(const char* value);

}  // namespace gb
