#include <algorithm>
#include <cmath>

#include "core/adaptive.hpp"
#include "core/errors.hpp"
#include "core/techniques.hpp"

namespace gb {

Measurement differential(const RunContext& ctx, const std::function<double(long reps)>& run) {
  const long lo = ctx.options.reps_lo;
  const long hi = ctx.options.reps_hi;
  if (hi <= lo) throw UsageError("differential technique needs reps_hi > reps_lo");
  const double dr = static_cast<double>(hi - lo);
  run(lo);  // warm-up: module load, first-launch costs
  run(hi);
  std::vector<double> l_hi, l_lo, per_pair;
  AdaptiveStop stop(ctx);
  double value = 0, sigma = 0;
  do {
    // Interleaved so that slow drifts (clocks, neighbours) hit both series alike.
    l_hi.push_back(ctx.max_over_ranks(run(hi)) * 1e9);
    l_lo.push_back(ctx.max_over_ranks(run(lo)) * 1e9);
    per_pair.push_back((l_hi.back() - l_lo.back()) / dr);
    const Summary s_hi = summarize(l_hi), s_lo = summarize(l_lo);
    value = (s_hi.mean - s_lo.mean) / dr;
    sigma = std::sqrt(s_hi.stddev * s_hi.stddev + s_lo.stddev * s_lo.stddev) / dr;
  } while (stop.more(l_hi.size(),
                     value > 0 ? sigma / std::sqrt(double(l_hi.size())) / value : INFINITY));

  Measurement m;
  m.metric = "latency";
  m.unit = "ns";
  m.technique = "differential";
  m.stats = summarize(per_pair);
  m.stats.mean = value;
  m.stats.stddev = sigma;
  m.stats.cv = value != 0 ? sigma / std::fabs(value) : 0;
  m.value = value;
  m.reps_lo = lo;
  m.reps_hi = hi;
  m.stop = stop.reason();
  return m;
}

}  // namespace gb
