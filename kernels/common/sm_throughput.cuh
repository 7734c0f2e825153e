// Throughput of an operation that stays inside one SM (warp and block barriers; the study (Zhang,
// Wahib, Zhang, Matsuoka), section 5.1, the workshop version's Table 5). Many warps per SM run the
// same dependent chain as the latency kernel and each records its clock span and SM id. On each SM
// the rate is
//   warps on that SM x operations per warp / (last warp's end - first warp's start),
// both ends read from that SM's clock; the figure is the mean over the SMs. Counting is per warp:
// a warp crossing a barrier (or doing one shuffle) counts once whatever the group size, so a
// block barrier of W warps counts W.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/adaptive.hpp"
#include "core/cuda_check.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/statistics.hpp"
#include "core/techniques.hpp"
#include "runtime/timers.cuh"

namespace gb {

// One warp's timed region. `sink` holds the chain's result so the compiler cannot drop it.
struct WarpSpan {
  long long t0, t1;
  unsigned sm, sink;
};

namespace dev {

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Lane 0 of every warp stores its span at the warp's index in the grid.
__device__ __forceinline__ void record_span(WarpSpan* spans, long long t0, long long t1,
                                            unsigned sink) {
  if (threadIdx.x % 32 != 0) return;
  const unsigned warps = (blockDim.x + 31) / 32;
  spans[blockIdx.x * warps + threadIdx.x / 32] = WarpSpan{t0, t1, sm_id(), sink};
}

// A dependent chain of trips x Unroll barriers between two clock reads; every warp records its
// span, so one kernel serves the latency (one group alone) and the throughput (many at once).
template <int Unroll, class Barrier>
__device__ __forceinline__ void timed_chain(long trips, WarpSpan* spans, Barrier barrier) {
  // A branch on the parameter before the first clock read: ptxas would otherwise load it after
  // the read, inside the timed region (cuobjdump -sass shows it). Never taken.
  if (trips < 1) return;
  const long long t0 = sm_clock();
  for (long r = 0; r < trips; ++r) {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) barrier();
  }
  const long long t1 = sm_clock();
  record_span(spans, t0, t1, 0);
}

}  // namespace dev

inline int multiprocessor_count(int device) {
  int n = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
  return n;
}

inline int warps_per_block(int threads) {
  return (threads + 31) / 32;
}

struct SmRate {
  double per_cycle = 0;     // operations per cycle per SM, mean over the SMs used
  double warps_per_sm = 0;  // warps that ran on an SM, mean over the SMs used
};

inline SmRate sm_rate(const std::vector<WarpSpan>& spans, long ops_per_warp) {
  struct Sm {
    long long first = 0, last = 0;
    long warps = 0;
  };
  std::map<unsigned, Sm> sms;
  for (const WarpSpan& w : spans) {
    Sm& s = sms.try_emplace(w.sm, Sm{w.t0, w.t1, 0}).first->second;
    s.first = std::min(s.first, w.t0);
    s.last = std::max(s.last, w.t1);
    ++s.warps;
  }
  SmRate r;
  if (sms.empty()) return r;
  for (const auto& [id, s] : sms) {
    r.per_cycle += static_cast<double>(s.warps) * ops_per_warp /
                   static_cast<double>(std::max(s.last - s.first, 1LL));
    r.warps_per_sm += static_cast<double>(s.warps);
  }
  r.per_cycle /= static_cast<double>(sms.size());
  r.warps_per_sm /= static_cast<double>(sms.size());
  return r;
}

// Latency of one group alone (a block, a cluster): `run(1)` launches one and returns the warps'
// spans; the figure is the first warp's clock span per repetition, by the clock technique.
template <typename Run>
std::vector<Measurement> lone_latency(const RunContext& ctx, const Run& run, const SmClock& clock,
                                      long reps) {
  auto sample = [&] {
    const WarpSpan w = run(1).front();
    return static_cast<double>(w.t1 - w.t0) / reps;
  };
  return clock_technique(ctx, sample, clock, reps);
}

// How a throughput is reported: the units of its two Measurements, how many time units a second
// has (1e9 for per ns, 1e6 for per us) and what the note starts with.
struct RateUnits {
  std::string per_cycle, per_time;
  double per_second = 1e9;
  std::string note_prefix;
};

// Samples `sample` until the adaptive criterion stops, like clock_technique. Two Measurements:
// "throughput_cycles" (units.per_cycle) and "throughput" (units.per_time, with the SM clock
// chosen at run time, `clock`); the note gives active_warps_per_sm after units.note_prefix.
inline std::vector<Measurement> rate_throughput(const RunContext& ctx,
                                                const std::function<SmRate()>& sample,
                                                const SmClock& clock, long reps,
                                                const RateUnits& units) {
  sample();  // warm-up
  std::vector<double> per_cycle;
  SmRate last;
  AdaptiveStop stop(ctx);
  do {
    last = sample();
    per_cycle.push_back(last.per_cycle);
  } while (stop.more(per_cycle.size(), summarize(per_cycle).relative_standard_error()));

  Measurement c;
  c.metric = Metric::throughput_cycles;
  c.unit = units.per_cycle;
  c.technique = Technique::clock;
  c.statistic = Statistic::median;
  c.stats = summarize(per_cycle);
  c.value = c.stats.median;
  c.sm_clock_hz = clock.hz;
  c.sm_clock_source = sm_clock_source_name(clock.source);
  c.reps_hi = reps;
  c.stop = stop.reason();
  c.samples = std::move(per_cycle);
  c.note = units.note_prefix +
           "active_warps_per_sm=" + std::to_string(static_cast<long>(last.warps_per_sm + 0.5));

  std::vector<double> per_time(c.samples.size());
  for (std::size_t i = 0; i < per_time.size(); ++i)
    per_time[i] = c.samples[i] * clock.hz / units.per_second;
  Measurement t = c;
  t.metric = Metric::throughput;
  t.unit = units.per_time;
  t.stats = summarize(per_time);
  t.value = t.stats.median;
  t.samples = std::move(per_time);
  t.note += "; " + sm_clock_note(clock);
  return {c, t};
}

// Per SM: "throughput_cycles" in <ops>/cycle/SM (comparable to the seed's tables) and
// "throughput" in <ops>/ns/SM.
inline std::vector<Measurement> sm_throughput(const RunContext& ctx,
                                              const std::function<SmRate()>& sample,
                                              const SmClock& clock, long reps,
                                              const std::string& ops) {
  return rate_throughput(ctx, sample, clock, reps, {ops + "/cycle/SM", ops + "/ns/SM", 1e9, ""});
}

}  // namespace gb
