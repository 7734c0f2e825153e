#include "core/environment.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <array>
#include <cstdlib>

#include "core/launch.hpp"
#include "gpubarrier_version.hpp"
#include "topology/cuda_absence.hpp"
#include "topology/gpu_uuid.hpp"
#include "topology/nvml_driver.hpp"

#ifdef GPUBARRIER_HAVE_NCCL
#include <nccl.h>
#endif

namespace gb {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string cuda_version_string(int v) {
  return v <= 0 ? std::string("none")
                : std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Name and UUID of each of the first `count` CUDA devices; empty ones where CUDA cannot say.
std::vector<GpuIdentity> gpu_identities(int count) {
  std::vector<GpuIdentity> ids(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
    ids[static_cast<std::size_t>(d)] = {prop.name, topo::format_gpu_uuid(prop.uuid.bytes)};
  }
  return ids;
}

}  // namespace

int count_cuda_devices(std::string& reason) {
  int n = 0;
  const cudaError_t rc = cudaGetDeviceCount(&n);
  if (rc != cudaSuccess) {
    reason = topo::cuda_unavailable_reason(rc);
    cudaGetLastError();
    return 0;
  }
  if (n == 0) reason = "cudaGetDeviceCount returned 0";
  return n;
}

Environment detect_environment(const Launch& launch) {
  Environment env;
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  env.host = host.data();
  env.node = env_or("SLURMD_NODENAME", env.host);
  env.slurm_job_id = env_or("SLURM_JOB_ID", "");
  env.slurm_step_id = env_or("SLURM_STEP_ID", "");
  int v = 0;
  cudaDriverGetVersion(&v);
  env.driver = cuda_version_string(v);
  v = 0;
  cudaRuntimeGetVersion(&v);
  env.cuda_runtime = cuda_version_string(v);
  std::string reason;
  env.gpus = gpu_identities(count_cuda_devices(reason));
  if (!env.gpus.empty()) env.gpu_model = env.gpus.front().model;
  env.nvidia_driver = topo::nvidia_driver_version();
#ifdef GPUBARRIER_HAVE_NCCL
  int nv = 0;
  if (ncclGetVersion(&nv) == ncclSuccess)
    env.nccl = std::to_string(nv / 10000) + "." + std::to_string((nv / 100) % 100) + "." +
               std::to_string(nv % 100);
#endif
  env.mpi = launch.mpi_library_version();
  env.version = GPUBARRIER_VERSION;
  env.git_sha = GPUBARRIER_GIT_SHA;
  return env;
}

}  // namespace gb
