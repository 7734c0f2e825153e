// A run context for techniques on synthetic runs: few samples, a short budget.
#pragma once

#include <vector>

#include "core/run_context.hpp"
#include "core/runner.hpp"

namespace gb::test {

inline RunContext quick_context() {
  RunContext ctx;
  ctx.options.samples = 10;
  ctx.options.time_budget_s = 0.5;
  return ctx;
}

// Two GPUs that a helper process (the legacy helper, the PyTorch peer script) is asked to use,
// with short differential runs and a short watchdog: each request's deadline is this + 1 ms per
// step.
inline RunContext helper_context() {
  RunContext ctx = quick_context();
  ctx.gpus = {0, 1};
  ctx.visible_gpus = 2;
  ctx.options.reps_lo = 4;
  ctx.options.reps_hi = 36;
  ctx.options.watchdog_s = 0.5;
  return ctx;
}

// The records that run_plan writes for one method on `ctx` (a plan of that method alone).
inline std::vector<Record> run_one(RunContext ctx, Method& method) {
  struct Collect final : ResultSink {
    std::vector<Record> records;
    void write(const Record& r) override { records.push_back(r); }
  } sink;
  RunPlan plan;
  plan.methods = {&method};
  plan.run_id = "r";
  run_plan(ctx, plan, {&sink});
  return sink.records;
}

}  // namespace gb::test
