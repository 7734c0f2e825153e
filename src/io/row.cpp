#include "io/row.hpp"

#include <cstdio>
#include <stdexcept>

namespace gb {
namespace {

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string axis_or_empty(const Point& p, const char* name) {
  const auto v = p.find(name);
  return v ? std::to_string(*v) : std::string();
}

void set(Row& row, const std::string& column, std::string value) {
  const auto& cols = Row::columns();
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == column) {
      row.fields[i] = std::move(value);
      return;
    }
  throw std::logic_error("no CSV column " + column);
}

Row base_row(const Record& r) {
  Row row;
  row.fields = {
      std::to_string(kSchemaVersion),
      r.run_id,
      r.timestamp,
      r.host,
      r.system,
      gpu_model_of(r),
      std::to_string(r.gpu_count),
      join_ids(r.gpu_ids),
      r.topology,
      r.driver,
      r.cuda_runtime,
      r.nccl,
      r.mpi,
      r.method,
      r.level,
      r.launcher,
      std::to_string(r.ranks),
      std::to_string(r.nodes),
      axis_or_empty(r.point, "blocks_per_sm"),
      axis_or_empty(r.point, "threads_per_block"),
      axis_or_empty(r.point, "group_size"),
      axis_or_empty(r.point, "cluster_size"),
      r.point.to_string(),
  };
  row.fields.resize(Row::columns().size());
  set(row, "node", r.node);
  set(row, "slurm_job_id", r.slurm_job_id);
  set(row, "slurm_step_id", r.slurm_step_id);
  set(row, "gpubarrier_version", r.gpubarrier_version);
  set(row, "git_sha", r.git_sha);
  set(row, "nvidia_driver", r.nvidia_driver);
  set(row, "gpu_uuids", gpu_uuids_of(r));
  set(row, "mpi_thread_level", r.mpi_thread_level);
  return row;
}

}  // namespace

namespace {

// The columns in CSV order (results/SCHEMA.md), which hold numbers, and the schema version that
// added each. Columns are only ever appended: a row of version v is a prefix of the current
// layout, which is how `merge` upgrades older files (the columns they lack stay empty).
struct Column {
  const char* name;
  bool numeric;
  int since = 1;
};
constexpr Column kColumns[] = {
    {"schema_version", true},
    {"run_id", false},
    {"timestamp", false},
    {"host", false},
    {"system", false},
    {"gpu_model", false},
    {"gpu_count", true},
    {"gpu_ids", false},
    {"topology", false},
    {"driver", false},
    {"cuda_runtime", false},
    {"nccl", false},
    {"mpi", false},
    {"method", false},
    {"level", false},
    {"launcher", false},
    {"ranks", true},
    {"nodes", true},
    {"blocks_per_sm", true},
    {"threads_per_block", true},
    {"group_size", true},
    {"cluster_size", true},
    {"config", false},
    {"technique", false},
    {"reps_lo", true},
    {"reps_hi", true},
    {"samples", true},
    {"metric", false},
    {"unit", false},
    {"value", true},
    {"mean", true},
    {"stddev", true},
    {"min", true},
    {"max", true},
    {"median", true},
    {"p95", true},
    {"p99", true},
    {"cv", true},
    {"stop", false},
    {"status", false},
    {"note", false},
    {"node", false, 2},
    {"slurm_job_id", false, 2},
    {"slurm_step_id", false, 2},
    {"gpubarrier_version", false, 3},
    {"git_sha", false, 3},
    {"nvidia_driver", false, 3},
    {"gpu_uuids", false, 3},
    {"sm_clock_mhz", true, 3},
    {"statistic", false, 3},
    {"mpi_thread_level", false, 4},
    {"sm_clock_source", false, 5},
};

}  // namespace

const std::vector<std::string>& Row::columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> v;
    for (const Column& c : kColumns) v.emplace_back(c.name);
    return v;
  }();
  return cols;
}

std::vector<std::string> Row::columns_of_version(int version) {
  std::vector<std::string> v;
  if (version < 1 || version > kSchemaVersion) return v;
  for (const Column& c : kColumns)
    if (c.since <= version) v.emplace_back(c.name);
  return v;
}

const std::vector<bool>& Row::numeric() {
  static const std::vector<bool> flags = [] {
    std::vector<bool> v;
    for (const Column& c : kColumns) v.push_back(c.numeric);
    return v;
  }();
  return flags;
}

const std::vector<int>& Row::since() {
  static const std::vector<int> versions = [] {
    std::vector<int> v;
    for (const Column& c : kColumns) v.push_back(c.since);
    return v;
  }();
  return versions;
}

const std::string& Row::get(const std::string& column) const {
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == column) return fields[i];
  throw std::logic_error("no CSV column " + column);
}

Row to_row(const Record& r) {
  Row row = base_row(r);
  set(row, "status", std::string(to_string(r.figure.status)));
  set(row, "note", r.figure.note);
  if (!r.has_figures) return row;
  const Measurement& m = r.figure;
  set(row, "technique", std::string(name_of(m.technique)));
  set(row, "reps_lo", m.reps_lo ? std::to_string(m.reps_lo) : "");
  set(row, "reps_hi", m.reps_hi ? std::to_string(m.reps_hi) : "");
  set(row, "samples", std::to_string(m.stats.count));
  set(row, "metric", std::string(name_of(m.metric)));
  set(row, "unit", m.unit);
  set(row, "value", fmt(m.value));
  set(row, "mean", fmt(m.stats.mean));
  set(row, "stddev", fmt(m.stats.stddev));
  set(row, "min", fmt(m.stats.min));
  set(row, "max", fmt(m.stats.max));
  set(row, "median", fmt(m.stats.median));
  set(row, "p95", fmt(m.stats.p95));
  set(row, "p99", fmt(m.stats.p99));
  set(row, "cv", fmt(m.stats.cv));
  set(row, "stop", std::string(name_of(m.stop)));
  set(row, "sm_clock_mhz", m.sm_clock_hz > 0 ? fmt(m.sm_clock_hz / 1e6) : "");
  set(row, "sm_clock_source", m.sm_clock_hz > 0 ? m.sm_clock_source : "");
  set(row, "statistic", std::string(name_of(m.statistic)));
  return row;
}

}  // namespace gb
