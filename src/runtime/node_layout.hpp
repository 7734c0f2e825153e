// Which ranks share a node, as a pure function of a key per rank: node-aware methods
// gather the GPUs of a node over NVLink/PCIe and let one leader per node cross the network. The
// key says what "one node" means: the session makes it from the node's name and its shared-memory
// domain (MPI_COMM_TYPE_SHARED), or from the test-only simulated grouping (core/faults.hpp,
// GPUBARRIER_TEST_RANKS_AS_NODES), so that every part of a run counts the same nodes.
#pragma once

#include <string>
#include <vector>

#include "core/launch.hpp"

namespace gb {

// Ranks with equal keys share a node.
NodeLayout layout_nodes(const std::vector<std::string>& rank_keys);

// One node: ranks 0..size-1 (outside MPI, and wherever no key was gathered).
NodeLayout single_node(int size);

// The key of a rank: its node's name and its shared-memory domain (the lowest world rank that
// shares its memory). Both count: two slurmd on one host (the local test cluster) share memory
// but are two nodes to Slurm, and a name alone could repeat across hosts.
std::string node_key(const std::string& node_name, int shared_domain);

}  // namespace gb
