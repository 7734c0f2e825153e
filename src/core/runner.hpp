// Runs selected methods over their configurations and hands every record to the sinks as soon
// as it exists. A configuration that cannot run becomes a row (skipped/failed/timeout/unverified),
// never an abort of the sweep.
#pragma once

#include <string>
#include <vector>

#include "core/axis.hpp"
#include "core/method.hpp"
#include "core/result_sink.hpp"
#include "core/run_context.hpp"

namespace gb {

struct RunTally {
  int ok = 0, skipped = 0, failed = 0, timeout = 0, unverified = 0;
  int total() const { return ok + skipped + failed + timeout + unverified; }
  RunTally& operator+=(const RunTally& o) {
    ok += o.ok;
    skipped += o.skipped;
    failed += o.failed;
    timeout += o.timeout;
    unverified += o.unverified;
    return *this;
  }
};

struct RunPlan {
  std::vector<Method*> methods;
  std::vector<AxisOverride> overrides;
  std::string run_id;
  std::string topology_class;
};

// Rows are produced on rank 0 only (the caller finishes the sinks); under MPI, methods that need
// mpirun run on every rank together and all others run on rank 0 alone.
RunTally run_plan(RunContext& ctx, const RunPlan& plan, const std::vector<ResultSink*>& sinks);

}  // namespace gb
