// Whether a GPU's NVLink fabric reaches beyond its node (multi-node NVLink, MNNVL: GB200 NVL72),
// from NVML's GPU fabric info. A method that groups GPUs by node and sends only the node leaders
// over the network must not run where NVLink spans nodes: there a node boundary is not a network
// boundary. The decision is a pure function of what the probe saw, so it is unit-tested with
// injected values; the probe (probe_fabric.cpp) needs NVML and a GPU.
#pragma once

#include <array>
#include <string>

namespace gb::topo {

struct FabricInfo {
  enum class Source {
    probed,   // nvmlDeviceGetGpuFabricInfoV answered (or said NOT_SUPPORTED: no fabric)
    no_nvml,  // built without NVML
    no_call,  // this nvml.h has no nvmlDeviceGetGpuFabricInfoV
    failed,   // NVML could not be initialised or the call failed otherwise: `detail`
  };
  Source source = Source::no_nvml;
  std::string detail;
  bool supported = false;  // false: NVML_ERROR_NOT_SUPPORTED or state NOT_SUPPORTED (no fabric)
  unsigned state = 0;      // NVML_GPU_FABRIC_STATE_*: 3 = COMPLETED
  bool status_ok = false;  // the registration's status was NVML_SUCCESS
  std::array<unsigned char, 16> cluster_uuid{};
};

inline constexpr unsigned kFabricStateCompleted = 3;  // NVML_GPU_FABRIC_STATE_COMPLETED

// True when the GPU belongs to a multi-node NVLink fabric: its registration completed
// successfully with a non-zero cluster UUID (what NCCL and NVSHMEM take for MNNVL too).
bool spans_nodes(const FabricInfo& f);

// Why GPUs cannot be grouped by node here (a sentence for a skipped row); empty when they can:
// the fabric, if any, ends at the node.
std::string node_grouping_problem(const FabricInfo& f);

// The fabric info of the GPU at this PCI bus id ("0000:18:00.0"). Never throws.
FabricInfo probe_fabric(const std::string& pci_bus_id);

}  // namespace gb::topo
