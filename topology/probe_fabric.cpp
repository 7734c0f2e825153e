#include "topology/fabric.hpp"

#ifdef GPUBARRIER_HAVE_NVML
#include <nvml.h>

#include <algorithm>
#endif

namespace gb::topo {

#if defined(GPUBARRIER_HAVE_NVML) && defined(nvmlGpuFabricInfo_v2)

namespace {

// The version macro of the newest fabric-info structure this nvml.h defines (size | v << 24).
#if defined(nvmlGpuFabricInfo_v4)
constexpr unsigned kFabricInfoVersion = nvmlGpuFabricInfo_v4;
#elif defined(nvmlGpuFabricInfo_v3)
constexpr unsigned kFabricInfoVersion = nvmlGpuFabricInfo_v3;
#else
constexpr unsigned kFabricInfoVersion = nvmlGpuFabricInfo_v2;
#endif

}  // namespace

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
  // nvmlGpuFabricInfoV_t is the newest version this nvml.h knows (v3 or v4 in recent headers):
  // the version field must name that one, or NVML refuses the call.
  nvmlGpuFabricInfoV_t info{};
  info.version = kFabricInfoVersion;
  if ((kFabricInfoVersion & 0xffffffu) != sizeof info) {
    nvmlShutdown();
    f.detail = "this nvml.h's nvmlGpuFabricInfoV_t matches none of its version macros";
    return f;
  }
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
