#include "core/adaptive.hpp"
#include "core/techniques.hpp"

namespace gb {

std::vector<Measurement> clock_technique(const RunContext& ctx,
                                         const std::function<double()>& sample, double sm_clock_hz,
                                         long reps) {
  sample();  // warm-up: instruction cache, module load
  std::vector<double> cycles;
  AdaptiveStop stop(ctx);
  do {
    cycles.push_back(sample());
  } while (stop.more(cycles.size(), summarize(cycles).relative_standard_error()));

  Measurement c;
  c.metric = "latency_cycles";
  c.unit = "cycles";
  c.technique = "clock";
  c.statistic = "median";
  c.stats = summarize(cycles);
  c.value = c.stats.median;
  c.sm_clock_hz = sm_clock_hz;
  c.reps_hi = reps;
  c.stop = stop.reason();
  c.samples = std::move(cycles);

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
