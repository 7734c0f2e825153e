#include "topology/nvml_clock.hpp"

#ifdef GPUBARRIER_HAVE_NVML
#include <nvml.h>
#endif

namespace gb::topo {

#ifdef GPUBARRIER_HAVE_NVML

NvmlSmClock nvml_sm_clock(const std::string& pci_bus_id) {
  static const bool initialised = nvmlInit_v2() == NVML_SUCCESS;
  NvmlSmClock c;
  nvmlDevice_t device{};
  if (!initialised || nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.c_str(), &device) != NVML_SUCCESS)
    return c;
  unsigned mhz = 0;
  if (nvmlDeviceGetClockInfo(device, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) c.current_hz = mhz * 1e6;
  if (nvmlDeviceGetMaxClockInfo(device, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) c.max_hz = mhz * 1e6;
  return c;
}

#else

NvmlSmClock nvml_sm_clock(const std::string&) {
  return {};
}

#endif

}  // namespace gb::topo
