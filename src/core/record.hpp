// What the runner produces for every figure (or every configuration that has none): a plain
// value holding the figure and its full context. Sinks (src/io) only format it: the CSV schema,
// the console table and JSON are decisions of io, what was measured where is decided here.
#pragma once

#include <string>
#include <vector>

#include "core/environment.hpp"
#include "core/method.hpp"

namespace gb {

struct RunContext;

struct Record {
  std::string run_id;
  std::string timestamp;  // UTC, ISO 8601
  // Where: this run's machine and software.
  std::string host, system, driver, cuda_runtime, nccl, mpi;
  std::string mpi_thread_level;  // what MPI_Init_thread provided; "" outside mpirun/srun
  // Which build measured it (`gpubarrier --version`) and the NVIDIA driver (NVML; "" without).
  std::string gpubarrier_version, git_sha, nvidia_driver;
  // Provenance for merging results of many jobs: the node name(s) (every rank's, in rank order,
  // for a method run on all ranks) and the Slurm job and step ids (empty outside Slurm).
  std::string node, slurm_job_id, slurm_step_id;
  // Which GPUs: 0 and none for host-only methods; every rank's under mpirun.
  long gpu_count = 0;
  std::vector<int> gpu_ids;
  std::vector<GpuIdentity> gpus;  // name and UUID of each of gpu_ids, in the same order
  std::string topology;  // class of those GPUs ("nv18-clique2"); empty for host-only methods
  // What: the method, how it was launched, and the configuration (every axis).
  std::string method, level;
  std::string launcher = "single";  // single, threads, mpi
  long ranks = 1, nodes = 1;
  Point point;
  // The figure (status and note always; the figures only where has_figures).
  Measurement figure;
  bool has_figures = false;
};

// What a record needs to know of the method behind it. A registered Method states it; figures
// that no Method produces (`gpubarrier selfcheck`'s) state it themselves.
struct MethodId {
  std::string name;
  Level level = Level::host;
  int min_gpus = 0;  // 0: host-only, no GPU columns
};

// The context of `method` at `point` in this run, with status `status`, a note, and no figures.
Record make_record(const RunContext& ctx, const std::string& run_id, const MethodId& method,
                   const Point& point, const std::string& topology_class, Status status,
                   const std::string& note);
Record make_record(const RunContext& ctx, const std::string& run_id, const Method& method,
                   const Point& point, const std::string& topology_class, Status status,
                   const std::string& note);

// The same record carrying `m`; a skipped measurement carries no figures (no 0 can then be read
// as a latency).
Record with_figure(Record record, const Measurement& m);

// What identifies a point across runs (--resume, merge): the record's values of the CSV columns
// method, config, gpu_ids, launcher, ranks and nodes, as the CSV writes them. Keys come from
// columns, so a key read back from a file equals the key of the point about to run.
struct PointKey {
  std::string method, config, gpu_ids, launcher, ranks, nodes;
  auto operator<=>(const PointKey&) const = default;
};
PointKey point_key(const Record& record);

// "0,1,3": the gpu_ids column.
std::string join_ids(const std::vector<int>& ids);

// The gpu_model column: the model of the record's GPUs, one name when all are the same, else
// every GPU's joined by ',' in gpu_ids order; "" for host-only records.
std::string gpu_model_of(const Record& record);
// The gpu_uuids column: every GPU's UUID joined by ',' in gpu_ids order.
std::string gpu_uuids_of(const Record& record);

// "20261122T043312Z-host-1234": unique per invocation, shared by all rows of one run.
std::string make_run_id(const std::string& host);
std::string utc_timestamp();

}  // namespace gb
