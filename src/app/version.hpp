#pragma once
#include <string>

namespace gb::cli {
// "gpubarrier 0.1.0 (git abc123)\nCUDA runtime 13.0, driver 13.0\nNVIDIA driver 580.159.04\n
// NCCL 2.28.9\nMPI Open MPI v4.1.4\ndata files: /opt/gpubarrier/share/gpubarrier (installed)"
std::string version_text();
}  // namespace gb::cli
