#include "core/fusion.hpp"

#include <cmath>
#include <vector>

#include "core/adaptive.hpp"
#include "core/errors.hpp"

namespace gb {

double fusion_overhead(double l_ij, double l_ji, long i, long j) {
  if (i < 1 || j < 1 || i == j)
    throw UsageError("fusion technique needs i, j >= 1 and i != j (got i=" + std::to_string(i) +
                     ", j=" + std::to_string(j) + ")");
  return (l_ij - l_ji) / static_cast<double>(i - j);
}

Measurement fusion(const RunContext& ctx,
                   const std::function<double(long launches, long units)>& run, long i, long j) {
  fusion_overhead(0, 0, i, j);  // validates before the device is touched
  const double di = std::fabs(static_cast<double>(i - j));
  run(i, j);  // warm-up: module load, first-launch costs, the stream pipeline filled once
  run(j, i);
  std::vector<double> l_ij, l_ji, per_pair;
  AdaptiveStop stop(ctx);
  double value = 0, sigma = 0;
  do {
    // Interleaved so that slow drifts (clocks, neighbours) hit both series alike.
    l_ij.push_back(run(i, j) * 1e9);
    l_ji.push_back(run(j, i) * 1e9);
    per_pair.push_back(fusion_overhead(l_ij.back(), l_ji.back(), i, j));
    const Summary s_ij = summarize(l_ij), s_ji = summarize(l_ji);
    value = fusion_overhead(s_ij.mean, s_ji.mean, i, j);
    sigma = std::sqrt(s_ij.stddev * s_ij.stddev + s_ji.stddev * s_ji.stddev) / di;
  } while (stop.more(l_ij.size(),
                     value > 0 ? sigma / std::sqrt(double(l_ij.size())) / value : INFINITY));

  Measurement m;
  m.metric = "launch_overhead";
  m.unit = "ns";
  m.technique = "fusion";
  m.stats = summarize(per_pair);
  m.stats.mean = value;
  m.stats.stddev = sigma;
  m.stats.cv = value != 0 ? sigma / std::fabs(value) : 0;
  m.value = value;
  m.reps_lo = j;
  m.reps_hi = i;
  m.stop = stop.reason();
  return m;
}

}  // namespace gb
