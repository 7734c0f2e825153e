// The JSON form of a topology, as `gpubarrier topo --json` prints it and results/ stores it.
#pragma once

#include <nlohmann/json.hpp>

#include "topology/topology.hpp"

namespace gb::topo {

// Keys: source, gpus, nics, nvlink, path, p2p (when probed), nvlink_components, nvlink_groups,
// subsets, topology_class, nvswitch, binding, probes. `path` holds the cells as printed.
nlohmann::json to_json(const Topology& topo);

}  // namespace gb::topo
