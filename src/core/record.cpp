#include "core/record.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "core/noisy.hpp"
#include "core/run_context.hpp"

namespace gb {
namespace {

// Under mpirun each rank drives its own GPUs; the count and gpu_ids are everyone's. A point with
// a gpu_count axis (resolved by the runner) states the count itself, also on its skipped rows.
long gpu_count(const RunContext& c, const MethodId& method, const Point& point) {
  if (method.min_gpus == 0) return 0;
  if (const auto asked = point.find("gpu_count"); asked && *asked > 0) return *asked;
  const bool across_ranks = c.collective && c.launch.under_mpi;
  return static_cast<long>(c.gpus.size()) * (across_ranks ? c.launch.size : 1);
}

// A method run on all ranks ran on every rank's node: one name per rank, in rank order (like
// gpu_ids), so that a 2-node row names both nodes.
std::string node_of(const RunContext& c) {
  if (!(c.collective && c.launch.under_mpi) || c.env.rank_nodes.empty()) return c.env.node;
  std::string all;
  for (const auto& n : c.env.rank_nodes) {
    if (!all.empty()) all += ',';
    all += n;
  }
  return all;
}

// The identity of each GPU a row stands for (ctx.row_gpus()): every rank's under mpirun (each
// rank's ordinal names a GPU of its own node), else this process's by ordinal.
std::vector<GpuIdentity> identities_of(const RunContext& c) {
  const std::vector<int>& ids = c.row_gpus();
  if (&ids == &c.rank_gpus && c.env.rank_gpus.size() == ids.size()) return c.env.rank_gpus;
  std::vector<GpuIdentity> out;
  for (int id : ids)
    out.push_back(id >= 0 && static_cast<std::size_t>(id) < c.env.gpus.size()
                      ? c.env.gpus[static_cast<std::size_t>(id)]
                      : GpuIdentity{});
  return out;
}

// The identities of `subset` (GPUs of the record's gpu_ids), looked up by ordinal.
std::vector<GpuIdentity> identities_of(const Record& r, const std::vector<int>& subset) {
  std::vector<GpuIdentity> out;
  for (int id : subset) {
    const auto at = std::find(r.gpu_ids.begin(), r.gpu_ids.end(), id);
    const auto i = static_cast<std::size_t>(at - r.gpu_ids.begin());
    out.push_back(i < r.gpus.size() ? r.gpus[i] : GpuIdentity{});
  }
  return out;
}

template <typename Field>
std::string join_field(const std::vector<GpuIdentity>& gpus, Field field) {
  std::string s;
  for (std::size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + gpus[i].*field;
  return s;
}

}  // namespace

Record make_record(const RunContext& ctx, const std::string& run_id, const Method& method,
                   const Point& point, const std::string& topology_class, Status status,
                   const std::string& note) {
  const MethodId id{std::string(method.name()), method.level(), method.requirements().min_gpus};
  return make_record(ctx, run_id, id, point, topology_class, status, note);
}

Record make_record(const RunContext& ctx, const std::string& run_id, const MethodId& method,
                   const Point& point, const std::string& topology_class, Status status,
                   const std::string& note) {
  Record r;
  r.run_id = run_id;
  r.timestamp = utc_timestamp();
  r.host = ctx.env.host;
  r.system = ctx.env.system;
  r.gpubarrier_version = ctx.env.version;
  r.git_sha = ctx.env.git_sha;
  r.nvidia_driver = ctx.env.nvidia_driver;
  r.driver = ctx.env.driver;
  r.cuda_runtime = ctx.env.cuda_runtime;
  r.nccl = ctx.env.nccl;
  r.mpi = ctx.env.mpi;
  r.mpi_thread_level = ctx.launch.thread_level;
  r.node = node_of(ctx);
  r.slurm_job_id = ctx.env.slurm_job_id;
  r.slurm_step_id = ctx.env.slurm_step_id;
  r.gpu_count = gpu_count(ctx, method, point);
  if (method.min_gpus > 0) {
    r.gpu_ids = ctx.row_gpus();
    r.gpus = identities_of(ctx);
  }
  r.topology = topology_class;
  r.method = method.name;
  r.level = std::string(to_string(method.level));
  if (ctx.collective) {
    r.launcher = ctx.launch.launcher;
    r.ranks = ctx.launch.size;
    r.nodes = ctx.launch.nodes;
  }
  r.point = point;
  r.figure.status = status;
  r.figure.note = note;
  return r;
}

Record with_figure(Record record, const Measurement& m) {
  if (m.status == Status::skipped) {
    record.figure.status = m.status;
    record.figure.note = m.note;
    return record;
  }
  if (!m.gpus.empty()) {
    record.gpus = identities_of(record, m.gpus);
    record.gpu_ids = m.gpus;
    record.gpu_count = static_cast<long>(m.gpus.size());
  }
  record.figure = m;
  mark_noisy(record.figure);
  record.has_figures = true;
  return record;
}

std::string gpu_model_of(const Record& r) {
  if (r.gpus.empty()) return "";
  const std::string& first = r.gpus.front().model;
  const bool one_model = std::all_of(r.gpus.begin(), r.gpus.end(),
                                     [&](const GpuIdentity& g) { return g.model == first; });
  return one_model ? first : join_field(r.gpus, &GpuIdentity::model);
}

std::string gpu_uuids_of(const Record& r) {
  return join_field(r.gpus, &GpuIdentity::uuid);
}

std::string join_ids(const std::vector<int>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(ids[i]);
  }
  return s;
}

PointKey point_key(const Record& r) {
  return {r.method,   r.point.to_string(),     join_ids(r.gpu_ids),
          r.launcher, std::to_string(r.ranks), std::to_string(r.nodes)};
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string make_run_id(const std::string& host) {
  std::string ts = utc_timestamp();
  std::erase(ts, '-');
  std::erase(ts, ':');
  return ts + "-" + host + "-" + std::to_string(getpid());
}

}  // namespace gb
