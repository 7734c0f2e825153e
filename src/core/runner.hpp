// Runs selected methods over their configurations and hands every record to the sinks as soon
// as it exists. A configuration that cannot run becomes a row (skipped/failed/timeout/unverified),
// never an abort of the sweep.
#pragma once

#include <string>
#include <vector>

#include "core/axis.hpp"
#include "core/method.hpp"
#include "core/progress.hpp"
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

// What the caller decides around each point (src/app: --resume, per-point isolation). `point` is
// the point's record before it runs (status ok, no figures): its identity, point_key(point).
class PointHooks {
 public:
  virtual ~PointHooks() = default;
  // False: do not run this point (already done). Asked on every rank that would run it, in the
  // same order; implementations answer alike on all ranks.
  virtual bool start(const Record& point) = 0;
  // Every record of the point has reached the sinks; `outcome` is failed or timeout when any
  // record was, else the first record's status.
  virtual void finished(const Record& point, Status outcome) = 0;
};

struct RunPlan {
  std::vector<Method*> methods;
  std::vector<AxisOverride> overrides;
  std::string run_id;
  std::string topology_class;
  PointHooks* hooks = nullptr;  // null: every point runs
  // The session's progress line (several plans share one); null: the plan shows its own.
  ProgressLine* progress = nullptr;
};

// Points of a method's axes after the overrides, without expanding them (saturates at SIZE_MAX).
std::size_t count_points(const std::vector<Axis>& axes, const std::vector<AxisOverride>& overrides);
// Points the plan runs on this context (a single-GPU method runs once per given GPU).
std::size_t count_plan_points(const RunContext& ctx, const RunPlan& plan);

// Rows are produced on rank 0 only (the caller finishes the sinks); under MPI, methods that need
// mpirun run on every rank together and all others run on rank 0 alone.
RunTally run_plan(RunContext& ctx, const RunPlan& plan, const std::vector<ResultSink*>& sinks);

}  // namespace gb
