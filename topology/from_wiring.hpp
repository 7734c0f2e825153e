// A Topology from the structural wiring of a system file, so that a machine described in
// configs/systems/ gets the same matrix, groups, subsets and binding advice as a probed one.
#pragma once

#include <optional>
#include <string>

#include "topology/system_wiring.hpp"
#include "topology/topology.hpp"

namespace gb::topo {

// The first way in which `wiring` contradicts itself ("NVLink 3-9 names a GPU outside 0-7"), or
// nullopt when it describes a node.
std::optional<std::string> wiring_problem(const SystemWiring& wiring);

// Every GPU pair gets its NVLink count and its PCIe path (kept for NVLinked pairs too, as the
// NVML probe keeps it); every GPU the CPUs and NUMA node of its PCIe position; every NIC its path
// to each GPU. Throws gb::UsageError "<source>: <problem>" for a wiring_problem.
Topology topology_from_wiring(const SystemWiring& wiring, const std::string& source);

}  // namespace gb::topo
