// The parent side of --isolate method|point: every method (or every point) of the plans runs in
// a child `gpubarrier run` (app/isolated_child.hpp), whose records reach this process's sinks as
// they come. A child that dies inside a point (abort, segfault, a sticky CUDA error that kills
// it) becomes a `failed` row for that point with the end of its output; one that gets no point
// done within --point-timeout is killed with its process group and becomes a `timeout` row; then
// a new child goes on with the points left.
#pragma once

#include <string>
#include <vector>

#include "app/point_book.hpp"
#include "core/runner.hpp"

namespace gb::cli {

struct IsolationArgs {
  bool per_point = false;  // a child per point, else per method
  double point_timeout_s = 600;
  // How to start a child: this executable, global flags, `run` and the session's flags; the
  // method, its axes and the child's hidden flags are added per child.
  std::vector<std::string> command;
};

RunTally run_isolated(RunContext& ctx, const std::vector<RunPlan>& plans, PointBook& book,
                      const std::vector<ResultSink*>& sinks, const IsolationArgs& args,
                      ProgressLine& progress);

}  // namespace gb::cli
