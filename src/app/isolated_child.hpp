// The child side of --isolate: a `run` started by the sweep with hidden flags, that sends its
// points and records to the parent (io/point_stream.hpp) instead of writing files.
#pragma once

#include <string>
#include <vector>

#include "core/runner.hpp"

namespace gb::cli {

struct ChildArgs {
  int fd = -1;            // the parent's pipe; -1: not a child
  std::string skip_file;  // a completion log of the points the parent counts as done
  int max_points = 0;     // run at most this many points, then leave the rest (0: no limit)
};

// Runs the plans, skipping the points of the skip file. Stops after a point that failed or timed
// out, so that the next point starts in a fresh process (a sticky CUDA error stays behind).
void run_as_child(RunContext& ctx, std::vector<RunPlan>& plans, const ChildArgs& args);

}  // namespace gb::cli
