#include "cli/version.hpp"

#include "core/environment.hpp"
#include "gpubarrier_version.hpp"

namespace gb::cli {

std::string version_text() {
  const Environment env = detect_environment();
  return std::string("gpubarrier ") + GPUBARRIER_VERSION + " (git " + GPUBARRIER_GIT_SHA + ")\n" +
         "CUDA runtime " + env.cuda_runtime + ", driver " + env.driver + "\n" + "NCCL " +
         (env.nccl.empty() ? "not built in" : env.nccl) + "\n" + "MPI " + env.mpi;
}

}  // namespace gb::cli
