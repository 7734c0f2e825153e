// The FP32 add chains of add_chain.hpp measured by both techniques of core/techniques.hpp, each
// figure a Measurement in cycles per add (metric and notes are the records' business).
#pragma once

#include <functional>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/sm_clock_choice.hpp"
#include "selfcheck/add_chain.hpp"

namespace gb::selfcheck {

// A differential figure of the loop kernel and the SM clock its own kernels ran at.
struct LoopPair {
  Measurement figure;  // cycles, converted at sm_clock_hz
  double sm_clock_hz = 0;
};

class AddFigures {
 public:
  // Makes ctx.gpus.front() current, lets the host spin while it waits and measures the SM clock.
  explicit AddFigures(const RunContext& ctx);
  double sm_clock_hz() const { return clock_.hz; }

  Measurement loop_clock(long adds);
  // R_lo = adds_lo, R_hi = adds_hi; their ns become cycles at the clock inside the pair's own
  // kernels: the figure compares the two techniques, not the SM clock now with the one measured
  // before the check.
  LoopPair loop_differential(long adds_lo, long adds_hi);

  Measurement unrolled_clock(long adds);
  // Converted at sm_clock_hz(): the chains read no %globaltimer.
  Measurement unrolled_differential(long adds_lo, long adds_hi);

 private:
  Measurement differential_between(long adds_lo, long adds_hi,
                                   const std::function<ChainSample(long)>& run);
  RunContext ctx_;
  SmClock clock_;
  AddChain chain_;  // after clock_: allocated on the device made current for it
};

}  // namespace gb::selfcheck
