// The single probes behind probe_local(). Each fills what it can see into the topology and
// appends its status to Topology::probes; none throws.
#pragma once

#include <string>

#include "topology/topology.hpp"

namespace gb::topo::detail {

// GPUs in CUDA ordinal order with name, PCI bus id, UUID and peer access. Runs first: the
// other probes attach what they find to these GPUs by PCI bus id.
void probe_cuda(Topology& topo);

// NVLink counts per GPU pair, NVSwitch presence and the PCIe path type of every GPU pair.
void probe_nvml(Topology& topo);

// The node's CPUs and NUMA nodes; CPU and NUMA locality of each GPU, RDMA NICs and their PCIe paths; PCIe paths between GPUs
// where NVML did not give them.
void probe_hwloc(Topology& topo);

// "0000:18:00.0" from any spelling of a PCI bus id ("00000000:18:00.0", upper case).
std::string normalize_bus_id(const std::string& bus_id);

}  // namespace gb::topo::detail
