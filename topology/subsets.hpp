// The best- and worst-connected GPU subsets of each size, so that a sweep can measure a barrier
// over both ends of what the machine offers.
#pragma once

#include <vector>

#include "topology/topology.hpp"

namespace gb::topo {

struct SubsetChoice {
  int size = 0;
  std::vector<int> best;   // sorted GPU indices
  std::vector<int> worst;  // sorted GPU indices
};

// Subsets of `size` GPUs ranked by their weakest pair's NVLink count, then the total NVLink count,
// then the longest PCIe path, then the sum of PCIe paths; ties go to the lowest indices. Exact
// for the GPU counts of real nodes, greedy beyond. Throws gb::UsageError for a size outside
// 1..gpu_count().
SubsetChoice connected_subsets(const Topology& topo, int size);

// One choice per size from 1 to gpu_count().
std::vector<SubsetChoice> connected_subsets(const Topology& topo);

}  // namespace gb::topo
