// The NVIDIA driver version, from NVML (the CUDA driver API version is another number).
#pragma once

#include <string>

namespace gb::topo {

// nvmlSystemGetDriverVersion, e.g. "580.159.04"; "" when built without NVML or when NVML cannot
// be initialised (no driver). Never throws.
std::string nvidia_driver_version();

}  // namespace gb::topo
