#include "core/method.hpp"

#include <fmt/format.h>

#include "core/run_context.hpp"
#include "errors/errors.hpp"

namespace gb {

std::string_view to_string(Level level) {
  switch (level) {
    case Level::warp:
      return "warp";
    case Level::block:
      return "block";
    case Level::cluster:
      return "cluster";
    case Level::grid:
      return "grid";
    case Level::kernel:
      return "kernel";
    case Level::multi_gpu:
      return "multi-gpu";
    case Level::multi_node:
      return "multi-node";
    case Level::host:
      return "host";
  }
  return "unknown";
}

std::string_view to_string(Status status) {
  switch (status) {
    case Status::ok:
      return "ok";
    case Status::skipped:
      return "skipped";
    case Status::failed:
      return "failed";
    case Status::timeout:
      return "timeout";
    case Status::unverified:
      return "unverified";
  }
  return "unknown";
}

std::string_view Axis::name_of(long code) const {
  for (const ValueName& n : names)
    if (n.code == code) return n.name;
  return {};
}

std::optional<long> Axis::code_of(std::string_view value_name) const {
  for (const ValueName& n : names)
    if (n.name == value_name) return n.code;
  return std::nullopt;
}

std::string_view Point::name_of(std::string_view axis) const {
  for (const auto& [k, n] : names_)
    if (k == axis) return n;
  return {};
}

std::optional<long> Point::find(std::string_view name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return v;
  return std::nullopt;
}

long Point::at(std::string_view name) const {
  if (auto v = find(name)) return *v;
  throw Error("configuration has no axis '" + std::string(name) + "' (have: " + to_string() + ")");
}

std::string Point::to_string() const {
  std::string s;
  for (const auto& [k, v] : values_) {
    if (!s.empty()) s += ' ';
    const std::string_view named = name_of(k);
    s += k + "=" + (named.empty() ? std::to_string(v) : std::string(named));
  }
  return s;
}

std::string_view to_string(TimedPath path) {
  switch (path) {
    case TimedPath::timed:
      return "timed";
    case TimedPath::diverged:
      return "diverged";
    case TimedPath::absent:
      return "absent";
  }
  return "unknown";
}

MethodInfo framed(const MethodInfo& policy, Level level, std::vector<Axis> frame_axes) {
  if (policy.level)
    throw Error(std::string(policy.name) + " states level " +
                std::string(to_string(*policy.level)) + ": its frame gives it (" +
                std::string(to_string(level)) + ")");
  MethodInfo info = policy;
  info.level = level;
  info.axes = std::move(frame_axes);
  info.axes.insert(info.axes.end(), policy.axes.begin(), policy.axes.end());
  return info;
}

Method::Method(MethodInfo info) : info_(std::move(info)) {
  if (!info_.level) throw Error(std::string(info_.name) + " states no level (MethodInfo::level)");
}

const TimedInstruction* Method::timed_at(const Point& point) const {
  for (const TimedInstruction& t : info_.timed)
    if (t.axis.empty() || point.find(t.axis) == t.value) return &t;
  return nullptr;
}

Usability Method::usable(const RunContext& ctx) const {
  const Requirements req = requirements();
  if (req.mpi_launch && !ctx.launch.under_mpi)
    return Usability::no(
        ctx.launch.mpi_available
            ? "needs several ranks: run it as `mpirun -np 2 gpubarrier run --methods " +
                  std::string(name()) + "` (or under srun)"
            : "gpubarrier was built without MPI (GPUBARRIER_WITH_MPI=OFF or not found)");
  if (req.min_gpus > 0 && ctx.visible_gpus == 0)
    return Usability::no("no CUDA GPU visible: " + ctx.no_gpu_reason);
  if (req.min_gpus > 0 && static_cast<int>(ctx.gpus.size()) < req.min_gpus)
    return Usability::no(
        fmt::format("needs at least {} GPUs, have {}", req.min_gpus, ctx.gpus.size()));
  if (req.min_compute_capability > 0 && ctx.compute_capability < req.min_compute_capability)
    return Usability::no(fmt::format(
        "needs compute capability {}.{}, GPU has {}.{}", req.min_compute_capability / 10,
        req.min_compute_capability % 10, ctx.compute_capability / 10, ctx.compute_capability % 10));
  if (req.nccl && ctx.env.nccl.empty())
    return Usability::no(
        "gpubarrier was built without NCCL (GPUBARRIER_WITH_NCCL=OFF or not found)");
  return Usability::yes();
}

Usability Method::feasible(const RunContext&, const Point&) const {
  return Usability::yes();
}

Verification Method::verify(State&) {
  return {};
}

}  // namespace gb
