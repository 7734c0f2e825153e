#include "core/techniques.hpp"

namespace gb {

std::vector<Measurement> clock_technique(const RunContext& ctx,
                                         const std::function<double()>& sample, double sm_clock_hz,
                                         long reps) {
  Samples cycles = adaptive_samples(ctx, sample);
  Measurement c =
      median_figure(std::move(cycles.values), "latency_cycles", "cycles", "clock", cycles.stop);
  c.sm_clock_hz = sm_clock_hz;
  c.reps_hi = reps;

  std::vector<double> ns(c.samples.size());
  for (std::size_t i = 0; i < ns.size(); ++i) ns[i] = c.samples[i] / sm_clock_hz * 1e9;
  Measurement t = c;
  t.metric = "latency";
  t.unit = "ns";
  t.stats = summarize(ns);
  t.value = t.stats.median;
  t.samples = std::move(ns);
  t.note = "SM clock " + std::to_string(static_cast<long>(sm_clock_hz / 1e6)) + " MHz measured";
  return {c, t};
}

}  // namespace gb
