// A short name for how a set of GPUs is wired, written into every CSV row so that results from
// different machines can be grouped: "nv18-clique8", "nv1nv2-cubemesh8", "pcie-sys2".
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace gb::topo {

// "none" for no GPU, "single" for one. With NVLink: the distinct link counts ("nv1nv2"), then
// clique (every pair linked), cubemesh (the DGX-1 hybrid cube mesh), mesh (connected otherwise),
// islands<c>x<s> (c unconnected cliques of s GPUs) or partial; then the GPU count. Without
// NVLink: "pcie-" and the longest PCIe path ("pcie-sys2").
std::string topology_class(const Topology& topo);

// The class of the GPUs in `gpu_subset` alone. Throws gb::UsageError for an index out of range.
std::string topology_class(const Topology& topo, const std::vector<int>& gpu_subset);

}  // namespace gb::topo
