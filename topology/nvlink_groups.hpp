// Which GPUs share NVLinks: connected components and the clique partition that multi-GPU sweeps
// use to place device-side barriers.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace gb::topo {

// GPUs reachable from each other over NVLink; a GPU without NVLink is a component of its own.
// Each list is sorted and the lists are ordered by their smallest index.
std::vector<std::vector<int>> nvlink_components(const Topology& topo);

// Greedy clique partition: take the largest set of pairwise NVLinked GPUs (the lowest indices
// on ties), remove it, repeat. A DGX-1 gives {0,1,2,3},{4,5,6,7}. Sorted like the components.
std::vector<std::vector<int>> nvlink_groups(const Topology& topo);

// Bit b of entry a is set when GPUs a and b share an NVLink. Throws gb::UsageError beyond
// kMaxGpus GPUs.
std::vector<std::uint64_t> nvlink_adjacency(const Topology& topo);

}  // namespace gb::topo
