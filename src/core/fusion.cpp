#include "core/fusion.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/techniques.hpp"
#include "errors/errors.hpp"

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
  m.metric = Metric::launch_overhead;
  m.unit = "ns";
  m.technique = Technique::fusion;
  m.statistic = Statistic::eq6;
  m.reps_lo = j;
  m.reps_hi = i;
  return m;
}

Usability fusion_point_usable(const Point& p) {
  const long threads = p.at("threads_per_block");
  if (threads < 1 || threads > 1024 || p.at("blocks_per_sm") < 1)
    return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
  const long i = p.at("fusion_i"), j = p.at("fusion_j"), unit = p.at("unit_ns");
  if (i < 1 || j < 1 || i == j) return Usability::no("needs fusion_i, fusion_j >= 1, i != j");
  // 1 ms is __nanosleep's upper limit per call.
  if (unit < 1 || unit > 1'000'000) return Usability::no("unit_ns must be within 1..1000000");
  if (const long shorter = std::min(i, j) * unit; shorter < kFusionMinKernelNs)
    return Usability::no(
        "kernels of min(fusion_i, fusion_j) x unit_ns = " + std::to_string(shorter) +
        " ns are shorter than the " + std::to_string(kFusionMinKernelNs) +
        " ns Eq. 6 needs (the study, section 9.2): raise unit_ns");
  return Usability::yes();
}

}  // namespace gb
