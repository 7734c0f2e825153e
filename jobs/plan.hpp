// The steps a sweep becomes on a system. Per node count: one single-process step (single-GPU
// and host-only methods), then one step per launch mode, GPU count and GPU subset, each running
// only the entries of the sweep that fit it. Steps are grouped into scripts: one per node count
// (successive job steps in one allocation), or one per step (--one-job-per-point). A request
// that cannot be met is refused with the reason (gb::UsageError).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/sweep_file.hpp"
#include "io/system_file.hpp"
#include "jobs/catalogue.hpp"
#include "jobs/request.hpp"
#include "topology/topology.hpp"

namespace gb::jobs {

struct Step {
  std::string id;  // "n1-mpi-g4-best" ("n1-mpi-r2" without GPUs): its sweep file and CSV
  int nodes = 1;
  Mode mode = Mode::single;
  int per_node = 1;              // GPUs per node (ranks per node in mpi mode, also without GPUs)
  std::optional<Subset> subset;  // std::nullopt: GPUs 0..per_node-1
  std::vector<int> gpus;         // node-local GPUs in local-rank order; empty without GPUs
  // CPUs per local rank (one entry for one process); "" unknown. A rank: one core of its GPU's
  // CPUs (jobs/rank_cores.hpp); one process: every CPU local to its GPUs.
  std::vector<std::string> cpus;
  SweepFile sweep;  // the entries it runs, as concrete method names
  long points = 0;
  double seconds = 0;  // estimated

  int tasks_per_node() const { return mode == Mode::mpi ? per_node : 1; }
};

struct Script {
  std::string name;  // "n1", or the step's id with --one-job-per-point
  int nodes = 1;
  std::vector<Step> steps;
  long time_limit_s = 0;
  int tasks_per_node = 1;   // the most any of its steps runs
  int gpus_per_node = 0;    // GPUs requested per node; 0: none
  bool overcommit = false;  // more tasks than CPUs per node (the CI cluster's 2 CPUs)

  long points() const;
  double seconds() const;
};

struct Plan {
  JobRequest request;  // partition, account and container image resolved against the system
  SystemFile system;
  topo::Topology topology;
  std::string sweep_path;
  SweepFile sweep;
  bool exclusive = true;    // whole nodes (always when best/worst subsets are asked)
  bool select_gpus = true;  // false with fake gres GPUs or none: no --gpus for gpubarrier
  bool time_estimated = true;
  std::vector<Script> scripts;
  std::vector<std::string> notes;  // what was widened, left out or estimated, for the user
  std::string estimate;            // how the time limits were estimated
};

// Loads the system (probing this machine for `probe: true`), its topology and the sweep.
Plan make_plan(const JobRequest& request, const Catalogue& catalogue);

// The same from values already loaded.
Plan make_plan(const JobRequest& request, const SystemFile& system, const topo::Topology& topology,
               const SweepFile& sweep, const std::string& sweep_path, const Catalogue& catalogue);

}  // namespace gb::jobs
