#include "topology/probes.hpp"

#ifdef GPUBARRIER_HAVE_NVML
#include <nvml.h>

#include <algorithm>
#endif

namespace gb::topo::detail {

#ifdef GPUBARRIER_HAVE_NVML
namespace {

PathType path_from_nvml(nvmlGpuTopologyLevel_t level) {
  switch (level) {
    case NVML_TOPOLOGY_INTERNAL:
    case NVML_TOPOLOGY_SINGLE:
      return PathType::PIX;
    case NVML_TOPOLOGY_MULTIPLE:
      return PathType::PXB;
    case NVML_TOPOLOGY_HOSTBRIDGE:
      return PathType::PHB;
    case NVML_TOPOLOGY_NODE:
      return PathType::NODE;
    case NVML_TOPOLOGY_SYSTEM:
      return PathType::SYS;
  }
  return PathType::Unknown;
}

struct LinkEnds {
  std::vector<int> to_gpu;  // active links to each GPU, by index
  int to_switch = 0;        // active links whose far end is an NVSwitch
};

LinkEnds read_links(const Topology& topo, nvmlDevice_t device) {
  LinkEnds ends;
  ends.to_gpu.assign(topo.gpus.size(), 0);
  for (unsigned link = 0; link < NVML_NVLINK_MAX_LINKS; ++link) {
    nvmlEnableState_t active = NVML_FEATURE_DISABLED;
    if (nvmlDeviceGetNvLinkState(device, link, &active) != NVML_SUCCESS ||
        active != NVML_FEATURE_ENABLED)
      continue;
    nvmlIntNvLinkDeviceType_t type = NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
    if (nvmlDeviceGetNvLinkRemoteDeviceType(device, link, &type) == NVML_SUCCESS &&
        type == NVML_NVLINK_DEVICE_TYPE_SWITCH) {
      ++ends.to_switch;
      continue;
    }
    nvmlPciInfo_t remote{};
    if (nvmlDeviceGetNvLinkRemotePciInfo_v2(device, link, &remote) != NVML_SUCCESS) continue;
    const std::string bus_id = normalize_bus_id(remote.busId);
    for (std::size_t g = 0; g < topo.gpus.size(); ++g)
      if (topo.gpus[g].pci_bus_id == bus_id) ++ends.to_gpu[g];
  }
  return ends;
}

void fill_links(Topology& topo, const std::vector<nvmlDevice_t>& devices) {
  const int n = topo.gpu_count();
  std::vector<LinkEnds> ends;
  for (nvmlDevice_t device : devices) ends.push_back(read_links(topo, device));
  bool any_switch = false;
  bool any_link = false;
  for (int a = 0; a < n; ++a) {
    any_switch = any_switch || ends[a].to_switch > 0;
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      Link& link = topo.links[a][b];
      // Through NVSwitch every GPU reaches every other at the bandwidth of its switch links,
      // which is what nvidia-smi prints as NV# for such pairs.
      link.nvlink = ends[a].to_gpu[b] + std::min(ends[a].to_switch, ends[b].to_switch);
      any_link = any_link || link.nvlink > 0;
      nvmlGpuTopologyLevel_t level{};
      if (nvmlDeviceGetTopologyCommonAncestor(devices[a], devices[b], &level) == NVML_SUCCESS)
        link.path = path_from_nvml(level);
    }
  }
  // Without any active NVLink the question of a switch does not arise.
  if (any_switch || any_link) topo.nvswitch = any_switch;
}

}  // namespace

void probe_nvml(Topology& topo) {
  if (topo.gpus.empty()) {
    topo.probes.emplace_back("nvml", "unavailable: no GPU found by the CUDA probe");
    return;
  }
  if (const nvmlReturn_t err = nvmlInit_v2(); err != NVML_SUCCESS) {
    topo.probes.emplace_back("nvml", std::string("unavailable: ") + nvmlErrorString(err));
    return;
  }
  std::vector<nvmlDevice_t> devices;
  for (const Gpu& gpu : topo.gpus) {
    nvmlDevice_t device{};
    if (const nvmlReturn_t err = nvmlDeviceGetHandleByPciBusId_v2(gpu.pci_bus_id.c_str(), &device);
        err != NVML_SUCCESS) {
      topo.probes.emplace_back("nvml", "unavailable: no NVML device for GPU" +
                                           std::to_string(gpu.index) + " (" + gpu.pci_bus_id +
                                           "): " + nvmlErrorString(err));
      nvmlShutdown();
      return;
    }
    devices.push_back(device);
  }
  fill_links(topo, devices);
  nvmlShutdown();
  topo.probes.emplace_back("nvml", "ok");
}

#else

void probe_nvml(Topology& topo) {
  topo.probes.emplace_back("nvml", "unavailable: not built (nvml.h not found at build time)");
}

#endif

}  // namespace gb::topo::detail
