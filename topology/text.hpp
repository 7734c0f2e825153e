// The human-readable form of a topology that `gpubarrier topo` prints.
#pragma once

#include <string>

#include "topology/topology.hpp"

namespace gb::topo {

// The node's CPUs and NUMA nodes (where probed), a matrix laid out like `nvidia-smi topo -m`, then
// the NVLink components and groups, the class, the best and worst subsets, per-GPU identity and
// binding advice, and the probes. Without GPUs: the CPUs, "no GPU" and the probes. What is not
// known is "unknown" throughout.
std::string to_text(const Topology& topo);

}  // namespace gb::topo
