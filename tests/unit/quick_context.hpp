// A run context for techniques on synthetic runs: few samples, a short budget.
#pragma once

#include "core/run_context.hpp"

namespace gb::test {

inline RunContext quick_context() {
  RunContext ctx;
  ctx.options.samples = 10;
  ctx.options.time_budget_s = 0.5;
  return ctx;
}

}  // namespace gb::test
