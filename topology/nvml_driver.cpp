#include "topology/nvml_driver.hpp"

#ifdef GPUBARRIER_HAVE_NVML
#include <nvml.h>
#endif

namespace gb::topo {

#ifdef GPUBARRIER_HAVE_NVML

std::string nvidia_driver_version() {
  if (nvmlInit_v2() != NVML_SUCCESS) return {};
  char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  const bool ok = nvmlSystemGetDriverVersion(version, sizeof version) == NVML_SUCCESS;
  nvmlShutdown();
  return ok ? std::string(version) : std::string();
}

#else

std::string nvidia_driver_version() {
  return {};
}

#endif

}  // namespace gb::topo
