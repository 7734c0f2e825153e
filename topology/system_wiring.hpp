// How the GPUs of a node type are wired, stated structurally as a system file
// (configs/systems/*.yaml) states it: NVLinks per GPU pair, the place of every GPU and NIC in
// the PCIe tree, the CPUs of every NUMA node. topology_from_wiring (from_wiring.hpp) derives the
// GPU x GPU matrix from it; groups, subsets and CPU binding are derived from that matrix, so none
// of them is ever written down twice.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/path_type.hpp"

namespace gb::topo {

// A device's place in the PCIe tree, written "numa/host-bridge/switch/switch...": the NUMA node
// it is local to, the host bridge (root complex) above it, then the PCIe switches from the root
// down to the device. Names other than the NUMA node only have to be equal where the hardware
// is shared.
struct PciePosition {
  int numa = 0;
  std::string host_bridge;
  std::vector<std::string> switches;  // outermost first; empty when on a root port

  bool operator==(const PciePosition&) const = default;
};

// nullopt unless `text` is "<numa>/<host bridge>[/<switch>...]" with non-empty names.
std::optional<PciePosition> parse_pcie_position(std::string_view text);
std::string to_string(const PciePosition& position);

// The path nvidia-smi reports between two devices: PIX below the same switch, PXB through several
// switches below one host bridge, PHB through that host bridge, NODE between host bridges of one
// NUMA node, SYS across NUMA nodes.
PathType pcie_path(const PciePosition& a, const PciePosition& b);

// `links` bonded NVLinks between GPUs a and b.
struct NvlinkEdge {
  int a = 0;
  int b = 0;
  int links = 0;
};

struct NumaNode {
  int id = 0;
  std::vector<int> cpus;
};

struct WiredNic {
  std::string name;  // RDMA device name, e.g. "mlx5_0"
  PciePosition pcie;
};

struct SystemWiring {
  std::string gpu_model;              // written into every Gpu::name
  std::vector<PciePosition> gpus;     // one per GPU, in CUDA ordinal order
  std::optional<int> nvswitch_links;  // every GPU reaches every other through NVSwitch
  std::vector<NvlinkEdge> nvlink;     // direct links, when there is no NVSwitch
  std::vector<NumaNode> numa_nodes;
  std::vector<WiredNic> nics;
};

}  // namespace gb::topo
