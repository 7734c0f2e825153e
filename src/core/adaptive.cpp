#include "core/adaptive.hpp"

namespace gb {

AdaptiveStop::AdaptiveStop(const RunContext& ctx)
    : ctx_(ctx), start_(std::chrono::steady_clock::now()) {}

bool AdaptiveStop::more(std::size_t samples, double rse) {
  const double elapsed = ctx_.max_over_ranks(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  const bool enough = samples >= static_cast<std::size_t>(ctx_.options.samples);
  if (enough && rse <= ctx_.options.rse_target) {
    reason_ = StopReason::converged;
    return false;
  }
  if ((samples >= kMinSamples && elapsed >= ctx_.options.time_budget_s) || samples >= kMaxSamples) {
    reason_ = StopReason::budget;
    return false;
  }
  return true;
}

}  // namespace gb
