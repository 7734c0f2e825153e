#include "io/point_stream.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "errors/errors.hpp"
#include "io/resume_log.hpp"

namespace gb {
namespace {

using nlohmann::json;

Level level_from_string(const std::string& text) {
  for (Level l : {Level::warp, Level::block, Level::cluster, Level::grid, Level::kernel,
                  Level::multi_gpu, Level::multi_node, Level::host})
    if (to_string(l) == text) return l;
  throw Error("unknown level '" + text + "'");
}

// JSON has no NaN or infinity (nlohmann writes null): a figure that is not finite comes back NaN.
double number(const json& j) {
  return j.is_null() ? std::numeric_limits<double>::quiet_NaN() : j.get<double>();
}

json summary_json(const Summary& s) {
  return {{"count", s.count},   {"median", s.median}, {"mean", s.mean},
          {"stddev", s.stddev}, {"min", s.min},       {"max", s.max},
          {"p95", s.p95},       {"p99", s.p99},       {"cv", s.cv}};
}

Summary summary_from(const json& j) {
  Summary s;
  s.count = j.at("count").get<std::size_t>();
  for (auto [name, field] : {std::pair{"median", &s.median},
                             {"mean", &s.mean},
                             {"stddev", &s.stddev},
                             {"min", &s.min},
                             {"max", &s.max},
                             {"p95", &s.p95},
                             {"p99", &s.p99},
                             {"cv", &s.cv}})
    *field = number(j.at(name));
  return s;
}

json measurement_json(const Measurement& m) {
  return {{"metric", name_of(m.metric)},
          {"unit", m.unit},
          {"technique", name_of(m.technique)},
          {"stats", summary_json(m.stats)},
          {"value", m.value},
          {"reps_lo", m.reps_lo},
          {"reps_hi", m.reps_hi},
          {"stop", name_of(m.stop)},
          {"status", to_string(m.status)},
          {"note", m.note},
          {"gpus", m.gpus},
          {"statistic", name_of(m.statistic)},
          {"sm_clock_hz", m.sm_clock_hz},
          {"sm_clock_source", m.sm_clock_source},
          {"samples", m.samples}};
}

Measurement measurement_from(const json& j) {
  Measurement m;
  m.metric = parse_name<Metric>(j.at("metric").get<std::string>(), "metric");
  m.unit = j.at("unit");
  m.technique = parse_name<Technique>(j.at("technique").get<std::string>(), "technique");
  m.stats = summary_from(j.at("stats"));
  m.value = number(j.at("value"));
  m.reps_lo = j.at("reps_lo");
  m.reps_hi = j.at("reps_hi");
  m.stop = parse_name<StopReason>(j.at("stop").get<std::string>(), "stop reason");
  m.status = status_from_string(j.at("status").get<std::string>());
  m.note = j.at("note");
  m.gpus = j.at("gpus").get<std::vector<int>>();
  m.statistic = parse_name<Statistic>(j.at("statistic").get<std::string>(), "statistic");
  m.sm_clock_hz = number(j.at("sm_clock_hz"));
  m.sm_clock_source = j.at("sm_clock_source");
  for (const json& v : j.at("samples")) m.samples.push_back(number(v));
  return m;
}

json gpus_json(const std::vector<GpuIdentity>& gpus) {
  json out = json::array();
  for (const GpuIdentity& g : gpus) out.push_back({{"model", g.model}, {"uuid", g.uuid}});
  return out;
}

json record_json(const Record& r) {
  return {{"run_id", r.run_id},
          {"timestamp", r.timestamp},
          {"host", r.host},
          {"system", r.system},
          {"gpubarrier_version", r.gpubarrier_version},
          {"git_sha", r.git_sha},
          {"nvidia_driver", r.nvidia_driver},
          {"driver", r.driver},
          {"cuda_runtime", r.cuda_runtime},
          {"nccl", r.nccl},
          {"mpi", r.mpi},
          {"node", r.node},
          {"slurm_job_id", r.slurm_job_id},
          {"slurm_step_id", r.slurm_step_id},
          {"gpu_count", r.gpu_count},
          {"gpu_ids", r.gpu_ids},
          {"gpus", gpus_json(r.gpus)},
          {"topology", r.topology},
          {"method", r.method},
          {"level", r.level},
          {"launcher", r.launcher},
          {"ranks", r.ranks},
          {"nodes", r.nodes},
          {"point", r.point.values()},
          {"point_names", r.point.names()},
          {"figure", measurement_json(r.figure)},
          {"has_figures", r.has_figures}};
}

Record record_from(const json& j) {
  Record r;
  for (auto [name, field] : {std::pair{"run_id", &r.run_id},
                             {"timestamp", &r.timestamp},
                             {"host", &r.host},
                             {"system", &r.system},
                             {"gpubarrier_version", &r.gpubarrier_version},
                             {"git_sha", &r.git_sha},
                             {"nvidia_driver", &r.nvidia_driver},
                             {"driver", &r.driver},
                             {"cuda_runtime", &r.cuda_runtime},
                             {"nccl", &r.nccl},
                             {"mpi", &r.mpi},
                             {"node", &r.node},
                             {"slurm_job_id", &r.slurm_job_id},
                             {"slurm_step_id", &r.slurm_step_id},
                             {"topology", &r.topology},
                             {"method", &r.method},
                             {"level", &r.level},
                             {"launcher", &r.launcher}})
    *field = j.at(name).get<std::string>();
  level_from_string(r.level);  // a level this build does not know is a malformed message
  r.gpu_count = j.at("gpu_count");
  r.gpu_ids = j.at("gpu_ids").get<std::vector<int>>();
  for (const json& g : j.at("gpus")) r.gpus.push_back({g.at("model"), g.at("uuid")});
  r.ranks = j.at("ranks");
  r.nodes = j.at("nodes");
  r.point = Point(j.at("point").get<std::vector<std::pair<std::string, long>>>(),
                  j.at("point_names").get<Point::Names>());
  r.figure = measurement_from(j.at("figure"));
  r.has_figures = j.at("has_figures");
  return r;
}

}  // namespace

std::string encode_begin(const Record& point) {
  return json{{"begin", record_json(point)}}.dump();
}
std::string encode_record(const Record& record) {
  return json{{"record", record_json(record)}}.dump();
}
std::string encode_end(Status outcome) {
  return json{{"end", to_string(outcome)}}.dump();
}
std::string encode_exit(bool more) {
  return json{{"exit", {{"more", more}}}}.dump();
}

PointMessage decode_point_message(std::string_view line) {
  PointMessage m;
  try {
    const json j = json::parse(line);
    if (j.contains("begin")) {
      m.kind = PointMessage::Kind::begin;
      m.record = record_from(j.at("begin"));
    } else if (j.contains("record")) {
      m.kind = PointMessage::Kind::record;
      m.record = record_from(j.at("record"));
    } else if (j.contains("end")) {
      m.kind = PointMessage::Kind::end;
      m.status = status_from_string(j.at("end").get<std::string>());
    } else if (j.contains("exit")) {
      m.kind = PointMessage::Kind::exit;
      m.more = j.at("exit").at("more");
    } else {
      throw Error("expected begin, record, end or exit");
    }
  } catch (const std::exception& e) {
    throw Error("malformed message from an isolated child (" + std::string(e.what()) +
                "): " + std::string(line.substr(0, 200)));
  }
  return m;
}

void PointStreamWriter::send(const std::string& message) {
  const std::string line = message + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("isolated child: parent pipe: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace gb
