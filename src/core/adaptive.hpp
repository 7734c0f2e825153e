// Adaptive stopping (after nvbench's noise criterion): keep sampling a configuration until its
// relative standard error is below the target, or its time budget is spent.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "core/run_context.hpp"

namespace gb {

class AdaptiveStop {
 public:
  explicit AdaptiveStop(const RunContext& ctx);
  // Whether to take more samples, given how many there are and their relative standard error.
  // Collective under MPI (elapsed time is the max over ranks) so all ranks stop together.
  bool more(std::size_t samples, double rse);
  // "converged" (rse below target), "budget" (time spent first) or "" while sampling goes on.
  const std::string& reason() const { return reason_; }

 private:
  const RunContext& ctx_;
  std::chrono::steady_clock::time_point start_;
  std::string reason_;
};

}  // namespace gb
