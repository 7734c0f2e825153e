#include "core/techniques.hpp"

namespace gb {

std::vector<Measurement> clock_technique(const RunContext& ctx,
                                         const std::function<double()>& sample,
                                         const SmClock& clock, long reps) {
  Samples cycles = adaptive_samples(ctx, sample);
  Measurement c = median_figure(std::move(cycles.values), Metric::latency_cycles, "cycles",
                                Technique::clock, cycles.stop);
  c.sm_clock_hz = clock.hz;
  c.sm_clock_source = sm_clock_source_name(clock.source);
  c.reps_hi = reps;

  std::vector<double> ns(c.samples.size());
  for (std::size_t i = 0; i < ns.size(); ++i) ns[i] = c.samples[i] / clock.hz * 1e9;
  Measurement t = c;
  t.metric = Metric::latency;
  t.unit = "ns";
  t.stats = summarize(ns);
  t.value = t.stats.median;
  t.samples = std::move(ns);
  t.note = sm_clock_note(clock);
  return {c, t};
}

}  // namespace gb
