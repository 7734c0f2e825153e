#include <utility>

#include "core/adaptive.hpp"
#include "core/techniques.hpp"

namespace gb {

Samples adaptive_samples(const RunContext& ctx, const std::function<double()>& sample) {
  sample();  // warm-up: instruction cache, module load
  Samples out;
  AdaptiveStop stop(ctx);
  do {
    out.values.push_back(sample());
  } while (stop.more(out.values.size(), summarize(out.values).relative_standard_error()));
  out.stop = stop.reason();
  return out;
}

Measurement median_figure(std::vector<double> values, Metric metric, std::string unit,
                          Technique technique, StopReason stop) {
  Measurement m;
  m.metric = metric;
  m.unit = std::move(unit);
  m.technique = technique;
  m.statistic = Statistic::median;
  m.stats = summarize(values);
  m.value = m.stats.median;
  m.stop = stop;
  m.samples = std::move(values);
  return m;
}

}  // namespace gb
