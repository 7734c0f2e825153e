#include "app/context.hpp"

#include <cuda_runtime.h>

#include <charconv>

#include "core/glob.hpp"
#include "errors/errors.hpp"

namespace gb::cli {

std::vector<int> select_gpus(const std::string& spec, int visible, const std::string& no_gpu_reason,
                             const Launch& launch, const std::string& flag) {
  std::vector<int> gpus;
  if (spec.empty()) {
    if (visible == 0) return gpus;
    if (launch.under_mpi) return {launch.local_rank % visible};
    for (int i = 0; i < visible; ++i) gpus.push_back(i);
    return gpus;
  }
  for (const auto& item : split_list(spec)) {
    int id = -1;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (ec != std::errc() || ptr != item.data() + item.size() || id < 0)
      throw UsageError(flag + " '" + spec + "': '" + item +
                       "' is not a GPU index (expected a list like 0,1)");
    if (id >= visible)
      throw UsageError(flag + " names GPU " + item + " but " +
                       (visible == 0 ? "no GPU is visible (" + no_gpu_reason + ")"
                                     : std::to_string(visible) + " are visible (0.." +
                                           std::to_string(visible - 1) + "); " + flag +
                                           " takes GPU indices (how many GPUs a "
                                           "method spans is --axis gpu_count=N)"));
    for (int g : gpus)
      if (g == id) throw UsageError(flag + " '" + spec + "' names GPU " + item + " twice");
    gpus.push_back(id);
  }
  // Under mpirun/srun a list of several GPUs is per node: local rank r drives its r-th entry, so
  // `mpirun -np 2 gpubarrier run --gpus 0,2` puts rank 0 on GPU 0 and rank 1 on GPU 2. More
  // ranks on a node than listed GPUs would make ranks share a GPU while the rows count each, so
  // that is refused. One GPU is this rank's own (the job scripts' rank.sh gives each rank its
  // entry through GPUBARRIER_GPUS); the rows' gpu_ids show every rank's.
  if (!launch.under_mpi || gpus.size() == 1) return gpus;
  if (static_cast<std::size_t>(launch.local_size) > gpus.size())
    throw UsageError(flag + " '" + spec + "' lists " + std::to_string(gpus.size()) + " GPUs but " +
                     std::to_string(launch.local_size) +
                     " ranks run on this node: each rank needs its own GPU (list one per local "
                     "rank, or start fewer ranks per node)");
  return {gpus[static_cast<std::size_t>(launch.local_rank)]};
}

RunContext make_context(const Launch& launch, const std::string& gpu_spec,
                        const std::string& flag) {
  RunContext ctx;
  ctx.launch = launch;
  ctx.env = detect_environment(launch);
  ctx.visible_gpus = count_cuda_devices(ctx.no_gpu_reason);
  ctx.gpus = select_gpus(gpu_spec, ctx.visible_gpus, ctx.no_gpu_reason, launch, flag);
  if (!ctx.gpus.empty()) {
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ctx.gpus.front());
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ctx.gpus.front());
    ctx.compute_capability = major * 10 + minor;
  }
  if (launch.under_mpi) ctx.rank_gpus = launch.gather(ctx.gpus.empty() ? -1 : ctx.gpus.front());
  return ctx;
}

}  // namespace gb::cli
