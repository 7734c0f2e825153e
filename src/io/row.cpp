#include "io/row.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace gb {
namespace {

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

std::string axis_or_empty(const Point& p, const char* name) {
  const auto v = p.find(name);
  return v ? std::to_string(*v) : std::string();
}

// Under mpirun each rank drives its own GPUs; the count and gpu_ids are everyone's. A point with
// a gpu_count axis (resolved by the runner) states the count itself, also on its skipped rows.
std::size_t gpu_count(const RowSource& src) {
  const RunContext& c = src.ctx;
  if (src.method.requirements().min_gpus == 0) return 0;
  if (const auto asked = src.point.find("gpu_count"); asked && *asked > 0)
    return static_cast<std::size_t>(*asked);
  const bool across_ranks = c.collective && c.launch.under_mpi;
  return c.gpus.size() * static_cast<std::size_t>(across_ranks ? c.launch.size : 1);
}

Row base_row(const RowSource& src) {
  const RunContext& c = src.ctx;
  Row row;
  row.fields = {
      std::to_string(kSchemaVersion),
      src.run_id,
      utc_timestamp(),
      c.env.host,
      c.env.system,
      c.env.gpu_model,
      std::to_string(gpu_count(src)),
      src.method.requirements().min_gpus > 0 ? join_ints(c.row_gpus()) : "",
      src.topology_class,
      c.env.driver,
      c.env.cuda_runtime,
      c.env.nccl,
      c.env.mpi,
      std::string(src.method.name()),
      std::string(to_string(src.method.level())),
      c.collective ? c.launch.launcher : "single",
      std::to_string(c.collective ? c.launch.size : 1),
      std::to_string(c.collective ? c.launch.nodes : 1),
      axis_or_empty(src.point, "blocks_per_sm"),
      axis_or_empty(src.point, "threads_per_block"),
      axis_or_empty(src.point, "group_size"),
      axis_or_empty(src.point, "cluster_size"),
      src.point.to_string(),
  };
  row.fields.resize(Row::columns().size());
  return row;
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

}  // namespace

namespace {

// The schema v1 columns in CSV order (results/SCHEMA.md), and which hold numbers.
struct Column {
  const char* name;
  bool numeric;
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

const std::vector<bool>& Row::numeric() {
  static const std::vector<bool> flags = [] {
    std::vector<bool> v;
    for (const Column& c : kColumns) v.push_back(c.numeric);
    return v;
  }();
  return flags;
}

const std::string& Row::get(const std::string& column) const {
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == column) return fields[i];
  throw std::logic_error("no CSV column " + column);
}

Row make_row(const RowSource& src, const Measurement& m) {
  // A method may find out only while measuring that it cannot (a library's refusal): such a row
  // carries no figures, as every other skipped row, so that no 0 is ever read as a latency.
  if (m.status == Status::skipped) return make_status_row(src, m.status, m.note);
  Row row = base_row(src);
  set(row, "technique", m.technique);
  set(row, "reps_lo", m.reps_lo ? std::to_string(m.reps_lo) : "");
  set(row, "reps_hi", m.reps_hi ? std::to_string(m.reps_hi) : "");
  set(row, "samples", std::to_string(m.stats.count));
  set(row, "metric", m.metric);
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
  set(row, "stop", m.stop);
  set(row, "status", std::string(to_string(m.status)));
  set(row, "note", m.note);
  return row;
}

Row make_status_row(const RowSource& src, Status status, const std::string& reason) {
  Row row = base_row(src);
  set(row, "status", std::string(to_string(status)));
  set(row, "note", reason);
  return row;
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
