// Adaptive stopping (after nvbench's noise criterion): keep sampling a configuration until its
// relative standard error is below the target, or its time budget is spent. The budget bounds
// every figure whatever the minimum sample count asks (a figure that spends it first has fewer
// samples, stop "budget"), and a figure keeps at most kMaxSamples samples (80 MB; stop "budget"
// too): neither --samples nor a long budget can take a point's time or memory without bound.
#pragma once

#include <chrono>
#include <cstddef>

#include "core/run_context.hpp"
#include "core/stop_reason.hpp"

namespace gb {

// The fewest samples a figure stops with (a spread needs two), and the most it keeps.
inline constexpr std::size_t kMinSamples = 2;
inline constexpr std::size_t kMaxSamples = 10'000'000;

class AdaptiveStop {
 public:
  explicit AdaptiveStop(const RunContext& ctx);
  // Whether to take more samples, given how many there are and their relative standard error.
  // Collective under MPI (elapsed time is the max over ranks) so all ranks stop together.
  bool more(std::size_t samples, double rse);
  // converged (rse below target), budget (time spent first) or none while sampling goes on.
  StopReason reason() const { return reason_; }

 private:
  const RunContext& ctx_;
  std::chrono::steady_clock::time_point start_;
  StopReason reason_ = StopReason::none;
};

}  // namespace gb
