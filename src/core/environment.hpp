// Versions and identity of the machine, written into every CSV row so results stay comparable.
#pragma once

#include <string>

namespace gb {

struct Environment {
  std::string host;
  std::string system = "local";  // machine type (configs/systems), set by --system
  std::string gpu_model;         // "" without a GPU
  std::string driver;            // CUDA driver API version, e.g. "13.0"
  std::string cuda_runtime;
  std::string nccl;  // "" when built without NCCL
  std::string mpi;   // "none" when built without MPI
  std::string git_sha;
};

// Reads versions from the libraries actually loaded (not the headers compiled against).
Environment detect_environment();

// Counts visible CUDA devices; on failure returns 0 and sets `reason` (e.g. no driver).
int count_cuda_devices(std::string& reason);

}  // namespace gb
