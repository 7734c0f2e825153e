// Whether a method runs in one step: a launch mode, a node count and a number of GPUs (or ranks)
// per node. The planner asks this for every method of the sweep and every step it considers.
#pragma once

#include <optional>
#include <string>

#include "jobs/catalogue.hpp"

namespace gb::jobs {

struct Slot {
  int nodes = 1;
  Mode mode = Mode::single;
  int per_node = 1;        // GPUs per node, or ranks per node in mpi mode
  bool real_gpus = true;   // false: fake gres GPUs or none (CPU-only methods only)
  std::string no_gpu_why;  // why there are no real GPUs ("local-slurm has fake gres GPUs")
};

// Why `method` cannot run in `slot`, or nullopt when it can. A method that does not run in the
// slot's launch mode at all gets "" (not a reason worth reporting).
std::optional<std::string> why_not(const MethodInfo& method, const Slot& slot);

}  // namespace gb::jobs
