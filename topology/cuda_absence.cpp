#include "topology/cuda_absence.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <filesystem>

namespace gb::topo {

DriverPresence nvidia_driver_presence() {
  DriverPresence out;
  // The CUDA runtime loads the driver by this name; loading it again only counts a reference.
  if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    out.library = true;
    dlclose(lib);
  }
  std::error_code ec;
  out.kernel =
      std::filesystem::exists("/proc/driver/nvidia", ec) || std::filesystem::exists("/dev/dxg", ec);
  return out;
}

std::string cuda_unavailable_reason(int cuda_error, const std::string& error_name,
                                    const std::string& error_text, const DriverPresence& driver) {
  const bool absence = cuda_error == cudaErrorInsufficientDriver || cuda_error == cudaErrorNoDevice;
  if (absence && !driver.library)
    return "no NVIDIA driver or GPU found: libcuda.so.1, the driver's library, cannot be loaded";
  if (absence && !driver.kernel)
    return "no NVIDIA driver or GPU found: no NVIDIA kernel driver, /proc/driver/nvidia is "
           "missing";
  return error_name + ": " + error_text;
}

std::string cuda_unavailable_reason(int cuda_error) {
  const auto err = static_cast<cudaError_t>(cuda_error);
  return cuda_unavailable_reason(cuda_error, cudaGetErrorName(err), cudaGetErrorString(err),
                                 nvidia_driver_presence());
}

}  // namespace gb::topo
