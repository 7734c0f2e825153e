// The rows of the model's stream micro-benchmarks (gpubarrier_tools/cli/model.py reads them by these names).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "common/event_timing.hpp"
#include "core/state.hpp"

namespace gb::model {

// What both stream methods are: one GPU, nothing to verify, one axis within [lo, hi].
class StreamMethod : public Method {
 public:
  using Method::Method;
  Requirements requirements() const override { return Requirements::single_gpu(); }
  Usability feasible(const RunContext&, const Point& p) const override {
    const Axis a = axes().front();
    const long v = p.at(a.name);
    if (v < a.values.front() || v > a.values.back())
      return Usability::no(a.name + " must be within " + std::to_string(a.values.front()) + ".." +
                           std::to_string(a.values.back()));
    return Usability::yes();
  }
  Verification verify(State&) override {
    return Verification::not_verified("a memory micro-benchmark: no barrier to check");
  }
};

// bandwidth_cycles (B/cycle) and bandwidth (B/ns) from samples of bytes per cycle.
inline std::vector<Measurement> bandwidth_rows(const Samples& per_cycle, const SmClock& clock,
                                               long reps) {
  std::vector<double> per_ns(per_cycle.values.size());
  for (std::size_t i = 0; i < per_ns.size(); ++i) per_ns[i] = per_cycle.values[i] * clock.hz / 1e9;
  std::vector<Measurement> rows{median_figure(per_cycle.values, Metric::bandwidth_cycles, "B/cycle",
                                              Technique::clock, per_cycle.stop),
                                median_figure(std::move(per_ns), Metric::bandwidth, "B/ns",
                                              Technique::clock, per_cycle.stop)};
  for (Measurement& m : rows) {
    m.sm_clock_hz = clock.hz;
    m.sm_clock_source = sm_clock_source_name(clock.source);
    m.reps_hi = reps;
  }
  return rows;
}

// Little's law (the study (Zhang, Wahib, Zhang, Matsuoka), Eq. 1) for the note: C = T x Thr.
inline std::string concurrency_note(double latency, double bandwidth, const char* units) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "concurrency C = T x Thr = %.4g B (T, Thr in %s)",
                latency * bandwidth, units);
  return buf;
}

}  // namespace gb::model
