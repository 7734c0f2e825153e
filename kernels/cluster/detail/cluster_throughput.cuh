// Throughput of a cluster barrier over the whole GPU: the block level's throughput (the study's
// workshop version (Zhang, Wahib, Zhang, Matsuoka), Table 5, common/sm_throughput.cuh) one
// level up. Many co-resident clusters run the latency kernel's chain at once and every warp records
// its clock span and SM id. Clocks are per SM and not comparable across SMs, while a cluster spans
// several SMs, so the count is made per SM as for blocks: an SM's rate is warps on it x barriers
// per warp / (its last warp's end - its first warp's start), both read from that SM's clock. The
// GPU's rate is the sum of these over the SMs used, divided by the warp crossings that make up one
// cluster barrier (cluster size x warps per block). The sum is sound because every cluster is
// resident at once (feasible() keeps the count within cudaOccupancyMaxActiveClusters), so the SMs'
// windows overlap.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/sm_throughput.cuh"
#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb::cluster_detail {

// Cluster barriers per SM-clock cycle for the whole GPU, with the warps that ran on an SM (mean
// over the SMs used).
inline SmRate gpu_rate(const std::vector<WarpSpan>& spans, long reps_per_warp,
                        int warps_per_cluster) {
  const SmRate per_sm = sm_rate(spans, reps_per_warp);  // mean over the SMs used
  std::set<unsigned> used;
  for (const WarpSpan& w : spans) used.insert(w.sm);
  return {per_sm.per_cycle * static_cast<double>(used.size()) / warps_per_cluster,
          per_sm.warps_per_sm};
}

// Two Measurements (common/sm_throughput.cuh): "throughput_cycles" (cluster-barriers/cycle) and
// "throughput" (cluster-barriers/us), both for the whole GPU. Per us rather than per ns: a
// handful of clusters of 16 manage a few hundredths of a barrier per ns. The note starts with
// `shape` (the caller's active-cluster count) and adds active_warps_per_sm.
inline std::vector<Measurement> gpu_throughput(const RunContext& ctx,
                                               const std::function<SmRate()>& sample,
                                               const SmClock& clock, long reps,
                                               const std::string& shape) {
  return rate_throughput(ctx, sample, clock, reps,
                         {"cluster-barriers/cycle", "cluster-barriers/us", 1e6, shape + "; "});
}

}  // namespace gb::cluster_detail
