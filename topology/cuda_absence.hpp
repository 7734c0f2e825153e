// Why CUDA found no GPU, in words that point at the cause. On a machine without any NVIDIA
// driver the CUDA runtime answers cudaErrorInsufficientDriver ("CUDA driver version is
// insufficient for CUDA runtime version"), which reads as a call for a driver upgrade; such a
// machine is told "no NVIDIA driver or GPU found" instead. Where a driver exists, CUDA's own
// words stay: an old driver there really is too old for the runtime.
#pragma once

#include <string>

namespace gb::topo {

struct DriverPresence {
  bool library = false;  // the driver's libcuda.so.1 loads
  bool kernel = false;   // the NVIDIA kernel driver runs: /proc/driver/nvidia (WSL: /dev/dxg)
};

// This machine's driver, looked up now. Never throws.
DriverPresence nvidia_driver_presence();

// `error_name: error_text` (cudaGetErrorName, cudaGetErrorString of `cuda_error`, a
// cudaError_t), except for cudaErrorInsufficientDriver and cudaErrorNoDevice where a part of the
// driver is missing: then "no NVIDIA driver or GPU found: <the missing part>".
std::string cuda_unavailable_reason(int cuda_error, const std::string& error_name,
                                    const std::string& error_text, const DriverPresence& driver);

// The same for a CUDA runtime error (a cudaError_t) on this machine.
std::string cuda_unavailable_reason(int cuda_error);

}  // namespace gb::topo
