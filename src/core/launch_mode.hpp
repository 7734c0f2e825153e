// Which launch mode a multi-GPU method runs in, and which GPUs take part in one configuration.
// Header-only: the runner (core, no OpenMP) and the methods both need it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/launch.hpp"
#include "core/method.hpp"

namespace gb {

enum class Mode { single, threads, mpi };

inline const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::threads:
      return "threads";
    case Mode::mpi:
      return "mpi";
    case Mode::single:
      break;
  }
  return "single";
}

// Under mpirun/srun a method that supports ranks runs in mpi mode; without them a method that
// supports threads runs in threads mode. Everything else runs as before (rank 0, `single`).
inline Mode launch_mode(const Launch& launch, const Requirements& req) {
  if (launch.under_mpi) return req.mpi_mode || req.mpi_launch ? Mode::mpi : Mode::single;
  return req.threads_mode ? Mode::threads : Mode::single;
}

// Why a threads-only method cannot run in this process, empty when it can: under mpirun each
// rank sees one GPU, so "one thread per GPU" would measure a single GPU.
inline std::string mode_problem(const Launch& launch, const Requirements& req) {
  if (launch.under_mpi && req.threads_mode && !req.mpi_mode && !req.mpi_launch)
    return "threads mode only (one process drives every GPU): start gpubarrier without mpirun";
  return {};
}

// The `gpu_count` axis: 0 (the default) means every GPU given, i.e. all GPUs of --gpus in
// threads mode and all ranks in mpi mode.
inline constexpr const char* kGpuCountAxis = "gpu_count";

inline long resolved_gpu_count(const Point& point, long available) {
  const long asked = point.get(kGpuCountAxis, 0);
  return asked == 0 ? available : asked;
}

// The point with gpu_count=0 replaced by the number of GPUs that take part, so that rows show
// the real figure; unchanged for points without the axis.
inline Point resolve_gpu_count(const Point& point, long available) {
  if (!point.find(kGpuCountAxis)) return point;
  auto values = point.values();
  for (auto& [name, value] : values)
    if (name == kGpuCountAxis) value = resolved_gpu_count(point, available);
  return Point(std::move(values), point.names());
}

// Threads mode: the first `count` GPUs given (all of them when count is out of range, so that
// the method's feasible() can name the problem).
inline std::vector<int> first_gpus(const std::vector<int>& gpus, long count) {
  if (count < 1 || count > static_cast<long>(gpus.size())) return gpus;
  return {gpus.begin(), gpus.begin() + count};
}

}  // namespace gb
