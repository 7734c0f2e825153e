// A GPU's UUID as nvidia-smi prints it, from the 16 bytes CUDA and NVML hold.
#pragma once

#include <span>
#include <string>

namespace gb::topo {

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower-case hex).
std::string format_gpu_uuid(std::span<const char, 16> bytes);

}  // namespace gb::topo
