// The three ways gpubarrier turns runs into figures (README.md, "Techniques"). Each returns
// finished Measurements; the method adds notes and the runner adds the context.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/sm_clock_choice.hpp"

namespace gb {

// host-loop: time each call of `step` with the steady clock after `warmup` untimed calls.
// Under MPI (ctx.collective) each iteration's figure is the maximum over ranks.
// One Measurement: metric "latency", unit "ns", value = median.
Measurement host_loop(const RunContext& ctx, const std::function<void()>& step, int warmup = 50);

// The host-loop Measurement of per-step times already taken (ns), for loops that cannot be a
// single `step` (steps inside an OpenMP parallel region): value = median.
Measurement host_loop_result(const std::vector<double>& samples_ns, StopReason stop);

// Steps timed by every member (thread, GPU) of such a loop: step i's figure is the slowest
// member's. Appends max over m of per_member[m][i] for i < steps.
void append_slowest(std::vector<double>& samples_ns,
                    const std::vector<std::vector<double>>& per_member, int steps);

// differential (the study (Zhang, Wahib, Zhang, Matsuoka), Eqs. 7-8): `run(reps)` executes `reps`
// barrier crossings inside one kernel (or step) and returns the elapsed seconds including launch
// and synchronisation. T = (mean L_hi - mean L_lo) / (R_hi - R_lo), sigma = sqrt(s_hi^2 + s_lo^2) /
// (R_hi - R_lo). One Measurement: metric "latency", unit "ns", value = T; stddev = sigma.
Measurement differential(const RunContext& ctx, const std::function<double(long reps)>& run);

// The sampling behind differential and fusion: `run_a` and `run_b` (seconds each) interleaved
// until the adaptive criterion stops; value = (mean a - mean b) / divisor in ns,
// stddev = sqrt(s_a^2 + s_b^2) / |divisor| (Eq. 8), order statistics of the per-pair estimates.
// The caller names metric, unit, technique and reps.
Measurement paired_difference(const RunContext& ctx, const std::function<double()>& run_a,
                              const std::function<double()>& run_b, double divisor);

// The samples of `sample()` (after one warm-up call) until the adaptive criterion stops, and why
// it stopped: the sampling of the clock technique and of the CUDA-event timings.
struct Samples {
  std::vector<double> values;
  StopReason stop = StopReason::none;
};
Samples adaptive_samples(const RunContext& ctx, const std::function<double()>& sample);

// A figure whose value is the median of `values` (its samples), as clock and host-loop give.
Measurement median_figure(std::vector<double> values, Metric metric, std::string unit,
                          Technique technique, StopReason stop);

// clock (Wong; the study's section 9.3): `sample()` runs one kernel and returns the cycles per
// operation read from clock64() inside it. Two Measurements: "latency_cycles" (cycles) and
// "latency" (ns, converted with the SM clock chosen at run time, `clock`); both carry the clock
// and its source, the ns figure its note.
std::vector<Measurement> clock_technique(const RunContext& ctx,
                                         const std::function<double()>& sample,
                                         const SmClock& clock, long reps);

}  // namespace gb
