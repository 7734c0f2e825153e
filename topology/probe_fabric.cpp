#include "topology/fabric.hpp"

#ifdef GPUBARRIER_HAVE_NVML
#include <nvml.h>

#include <algorithm>
#endif

namespace gb::topo {

#if defined(GPUBARRIER_HAVE_NVML) && defined(nvmlGpuFabricInfo_v2)

FabricInfo probe_fabric(const std::string& pci_bus_id) {
  FabricInfo f;
  f.source = FabricInfo::Source::failed;
  const auto failed = [&](const char* call, nvmlReturn_t rc) {
    f.detail = std::string(call) + " failed: " + nvmlErrorString(rc);
    return f;
  };
  if (const nvmlReturn_t rc = nvmlInit_v2(); rc != NVML_SUCCESS) return failed("nvmlInit", rc);
  nvmlDevice_t device{};
  nvmlReturn_t rc = nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.c_str(), &device);
  // The versioned structure, not nvmlGpuFabricInfoV_t: that name follows the newest version of
  // the header, and the version field must describe the structure passed.
  nvmlGpuFabricInfo_v2_t info{};
  info.version = nvmlGpuFabricInfo_v2;
  if (rc == NVML_SUCCESS) rc = nvmlDeviceGetGpuFabricInfoV(device, &info);
  nvmlShutdown();
  if (rc == NVML_ERROR_NOT_SUPPORTED) {  // no NVLink fabric on this GPU
    f.source = FabricInfo::Source::probed;
    return f;
  }
  if (rc != NVML_SUCCESS) return failed("nvmlDeviceGetGpuFabricInfoV", rc);
  f.source = FabricInfo::Source::probed;
  f.supported = info.state != NVML_GPU_FABRIC_STATE_NOT_SUPPORTED;
  f.state = info.state;
  f.status_ok = info.status == NVML_SUCCESS;
  std::copy(std::begin(info.clusterUuid), std::end(info.clusterUuid), f.cluster_uuid.begin());
  return f;
}

#else

FabricInfo probe_fabric(const std::string&) {
  FabricInfo f;
#ifdef GPUBARRIER_HAVE_NVML
  f.source = FabricInfo::Source::no_call;
#endif
  return f;
}

#endif

}  // namespace gb::topo
