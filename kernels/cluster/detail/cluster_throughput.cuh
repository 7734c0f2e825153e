// Throughput of a cluster barrier over the whole GPU: the block level's throughput (seed 002
// Table 5, common/sm_throughput.cuh) one level up. Many co-resident clusters run the latency
// kernel's chain at once and every warp records its clock span and SM id. Clocks are per SM and
// not comparable across SMs, while a cluster spans several SMs, so the count is made per SM as
// for blocks: an SM's rate is warps on it x barriers per warp / (its last warp's end - its first
// warp's start), both read from that SM's clock. The GPU's rate is the sum of these over the SMs
// used, divided by the warp crossings that make up one cluster barrier (cluster size x warps per
// block). The sum is sound because every cluster is resident at once (feasible() keeps the count
// within cudaOccupancyMaxActiveClusters), so the SMs' windows overlap.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/sm_throughput.cuh"
#include "core/adaptive.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/statistics.hpp"

namespace gb::cluster_detail {

struct GpuRate {
  double per_cycle = 0;     // cluster barriers per SM-clock cycle, whole GPU
  double warps_per_sm = 0;  // warps that ran on an SM, mean over the SMs used
};

inline GpuRate gpu_rate(const std::vector<WarpSpan>& spans, long reps_per_warp,
                        int warps_per_cluster) {
  const SmRate per_sm = sm_rate(spans, reps_per_warp);  // mean over the SMs used
  std::set<unsigned> used;
  for (const WarpSpan& w : spans) used.insert(w.sm);
  return {per_sm.per_cycle * static_cast<double>(used.size()) / warps_per_cluster,
          per_sm.warps_per_sm};
}

// Samples `sample` until the adaptive criterion stops, like sm_throughput. Two Measurements:
// "throughput_cycles" (cluster-barriers/cycle) and "throughput" (cluster-barriers/us, with the
// SM clock measured at run time), both for the whole GPU. Per us rather than per ns: a handful
// of clusters of 16 manage a few hundredths of a barrier per ns. The note starts with `shape`
// (the caller's active-cluster count) and adds active_warps_per_sm.
inline std::vector<Measurement> gpu_throughput(const RunContext& ctx,
                                               const std::function<GpuRate()>& sample,
                                               double sm_clock_hz, long reps,
                                               const std::string& shape) {
  sample();  // warm-up
  std::vector<double> per_cycle;
  GpuRate last;
  AdaptiveStop stop(ctx);
  do {
    last = sample();
    per_cycle.push_back(last.per_cycle);
  } while (stop.more(per_cycle.size(), summarize(per_cycle).relative_standard_error()));

  Measurement c;
  c.metric = "throughput_cycles";
  c.unit = "cluster-barriers/cycle";
  c.technique = "clock";
  c.stats = summarize(per_cycle);
  c.value = c.stats.median;
  c.reps_hi = reps;
  c.stop = stop.reason();
  c.note =
      shape + "; active_warps_per_sm=" + std::to_string(static_cast<long>(last.warps_per_sm + 0.5));

  std::vector<double> per_us(per_cycle.size());
  for (std::size_t i = 0; i < per_cycle.size(); ++i) per_us[i] = per_cycle[i] * sm_clock_hz / 1e6;
  Measurement t = c;
  t.metric = "throughput";
  t.unit = "cluster-barriers/us";
  t.stats = summarize(per_us);
  t.value = t.stats.median;
  t.note += "; SM clock " + std::to_string(static_cast<long>(sm_clock_hz / 1e6)) + " MHz measured";
  return {c, t};
}

}  // namespace gb::cluster_detail
