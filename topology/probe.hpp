// Probing the machine gpubarrier runs on.
#pragma once

#include "topology/topology.hpp"

namespace gb::topo {

// Runs the CUDA runtime, NVML (when built with it) and hwloc probes. A probe that cannot run
// records "unavailable: reason" in Topology::probes and the others still run; never throws
// because one of them failed.
Topology probe_local();

}  // namespace gb::topo
