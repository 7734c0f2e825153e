#include <algorithm>
#include <cmath>

#include "core/adaptive.hpp"
#include "core/techniques.hpp"
#include "errors/errors.hpp"

namespace gb {

Measurement paired_difference(const RunContext& ctx, const std::function<double()>& run_a,
                              const std::function<double()>& run_b, double divisor) {
  run_a();  // warm-up: module load, first-launch costs
  run_b();
  std::vector<double> l_a, l_b, per_pair;
  AdaptiveStop stop(ctx);
  double value = 0, sigma = 0;
  do {
    // Interleaved so that slow drifts (clocks, neighbours) hit both series alike, in the order
    // a b, b a, a b, ...: with a fixed order the second run of every pair would carry one
    // run's worth of drift more than the first.
    double a = 0, b = 0;
    if (l_a.size() % 2 == 0) {
      a = run_a();
      b = run_b();
    } else {
      b = run_b();
      a = run_a();
    }
    l_a.push_back(ctx.max_over_ranks(a) * 1e9);
    l_b.push_back(ctx.max_over_ranks(b) * 1e9);
    per_pair.push_back((l_a.back() - l_b.back()) / divisor);
    const Summary s_a = summarize(l_a), s_b = summarize(l_b);
    value = (s_a.mean - s_b.mean) / divisor;
    sigma = std::sqrt(s_a.stddev * s_a.stddev + s_b.stddev * s_b.stddev) / std::fabs(divisor);
  } while (
      l_a.size() % 2 == 1 ||  // whole a b / b a couples only
      stop.more(l_a.size(), value > 0 ? sigma / std::sqrt(double(l_a.size())) / value : INFINITY));

  Measurement m;
  m.stats = summarize(per_pair);
  m.stats.mean = value;
  m.stats.stddev = sigma;
  m.stats.cv = value != 0 ? sigma / std::fabs(value) : 0;
  m.value = value;
  m.stop = stop.reason();
  m.samples = std::move(per_pair);
  return m;
}

Measurement differential(const RunContext& ctx, const std::function<double(long reps)>& run) {
  const long lo = ctx.options.reps_lo;
  const long hi = ctx.options.reps_hi;
  if (hi <= lo) throw UsageError("differential technique needs reps_hi > reps_lo");
  Measurement m = paired_difference(
      ctx, [&] { return run(hi); }, [&] { return run(lo); }, static_cast<double>(hi - lo));
  m.metric = Metric::latency;
  m.unit = "ns";
  m.technique = Technique::differential;
  m.statistic = Statistic::eq7;
  m.reps_lo = lo;
  m.reps_hi = hi;
  return m;
}

}  // namespace gb
