// Everything a method needs to know about where and how it runs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/environment.hpp"
#include "core/launch.hpp"

namespace gb::topo {
struct Topology;
}

namespace gb {

struct RunOptions {
  int samples = 20;            // minimum samples per configuration, within the time budget
  double time_budget_s = 2.0;  // per configuration; adaptive stopping gives up after it
  double rse_target = 0.01;    // stop once the relative standard error is below this
  long reps_lo = 512;          // differential technique, the study's Eqs. 7-8
  long reps_hi = 5632;
  double watchdog_s = 2.0;  // device spin loops give up (timeout row) after this
};

struct RunContext {
  RunOptions options;
  Launch launch;               // single process, or rank r of n under mpirun/srun
  Environment env;             // versions, host, GPU model
  std::vector<int> gpus;       // CUDA device ordinals this process uses
  std::vector<int> rank_gpus;  // under MPI: the ordinal each rank drives, in rank order
  int visible_gpus = 0;        // cudaGetDeviceCount, 0 when no GPU
  std::string no_gpu_reason;   // why visible_gpus is 0
  int compute_capability = 0;  // of gpus.front(), e.g. 90
  // This node's wiring (probed once per run); null when the probe has not run (unit tests).
  std::shared_ptr<const topo::Topology> topology;
  // True while a method runs on every rank together; false for methods run on rank 0 alone.
  bool collective = false;
  // True in the child process of --isolate method|point, whose parent kills it with its process
  // group once a point overruns --point-timeout: only there may a method wait where no watchdog
  // reaches (a hang then costs the child, not the session).
  bool isolated = false;
  // The axes whose values the user named (--axis, a sweep file's axes) for the plan running now;
  // the others take the method's defaults, which a method may leave out where this machine
  // cannot run them well (a thread team beyond its CPUs).
  std::vector<std::string> named_axes;
  bool axis_named(const std::string& name) const {
    for (const auto& a : named_axes)
      if (a == name) return true;
    return false;
  }

  void max_over_ranks(std::vector<double>& values) const {
    if (collective) launch.max_in_place(values);
  }
  double max_over_ranks(double value) const { return collective ? launch.max(value) : value; }
  // The GPUs a row stands for: every rank's while a method runs on all ranks, else this process's.
  const std::vector<int>& row_gpus() const {
    return collective && launch.under_mpi && !rank_gpus.empty() ? rank_gpus : gpus;
  }
};

}  // namespace gb
