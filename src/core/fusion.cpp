#include "core/fusion.hpp"

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "core/techniques.hpp"

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
  Measurement m = paired_difference(
      ctx, [&] { return run(i, j); }, [&] { return run(j, i); }, static_cast<double>(i - j));
  m.metric = "launch_overhead";
  m.unit = "ns";
  m.technique = "fusion";
  m.statistic = "eq6";
  m.reps_lo = j;
  m.reps_hi = i;
  return m;
}

}  // namespace gb
