#include "app/version.hpp"

#include "core/environment.hpp"
#include "paths/data_dir.hpp"
#include "runtime/launcher.hpp"

namespace gb::cli {

// The same fields every CSV row carries (gpubarrier_version, git_sha, nvidia_driver, ...), then
// where the data files are (tools/, configs/: src/paths).
std::string version_text() {
  const Environment env = detect_environment(local_launch());
  return "gpubarrier " + env.version + " (git " + env.git_sha + ")\n" + "CUDA runtime " +
         env.cuda_runtime + ", driver " + env.driver + "\n" + "NVIDIA driver " +
         (env.nvidia_driver.empty() ? "unknown (no NVML)" : env.nvidia_driver) + "\n" + "NCCL " +
         (env.nccl.empty() ? "not built in" : env.nccl) + "\n" + "MPI " + env.mpi + "\n" +
         paths::data_dir_line();
}

}  // namespace gb::cli
