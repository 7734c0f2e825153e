// The `event` technique: cudaEvents around one enqueued GPU operation (a whole reduction, a
// copy, a streaming kernel), sampled until the adaptive criterion stops; figures whose work is
// long against an event's resolution (about 0.5 us) or that include their launches on purpose.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/techniques.hpp"

namespace gb {

// `op()` enqueues the work on `stream`; one warm-up run, then one sample (ns) per run, until the
// adaptive criterion stops (core/techniques.hpp adaptive_samples). Under MPI the sample is the
// slowest rank's. `before` (optional, untimed) runs before every run, ahead of the start event,
// and must have finished its GPU work when it returns (common/l2_evict.hpp: the L2 eviction).
inline Samples event_samples(const RunContext& ctx, cudaStream_t stream,
                             const std::function<void()>& op,
                             const std::function<void()>& before = {}) {
  cudaEvent_t start, stop;
  GB_CUDA_CHECK(cudaEventCreate(&start));
  GB_CUDA_CHECK(cudaEventCreate(&stop));
  Samples out;
  try {
    out = adaptive_samples(ctx, [&] {
      if (before) before();
      GB_CUDA_CHECK(cudaEventRecord(start, stream));
      op();
      GB_CUDA_CHECK(cudaEventRecord(stop, stream));
      GB_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      GB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      return ctx.max_over_ranks(static_cast<double>(ms) * 1e6);
    });
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  GB_CUDA_CHECK(cudaEventDestroy(start));
  GB_CUDA_CHECK(cudaEventDestroy(stop));
  return out;
}

// The bandwidth figure of latency samples (ns) that each moved `bytes`: bytes/ns per sample, in
// `unit` (B/ns and GB/s are the same number).
inline Measurement bandwidth_of(const std::vector<double>& ns, double bytes, Metric metric,
                                std::string unit, Technique technique, StopReason stop) {
  std::vector<double> rate(ns.size());
  for (std::size_t i = 0; i < ns.size(); ++i) rate[i] = bytes / ns[i];
  return median_figure(std::move(rate), metric, std::move(unit), technique, stop);
}

// latency (ns) and bandwidth (bytes / latency) of event samples.
inline std::vector<Measurement> latency_and_bandwidth(Samples s, double bytes,
                                                      std::string bandwidth_unit) {
  Measurement bw = bandwidth_of(s.values, bytes, Metric::bandwidth, std::move(bandwidth_unit),
                                Technique::event, s.stop);
  Measurement lat =
      median_figure(std::move(s.values), Metric::latency, "ns", Technique::event, s.stop);
  return {std::move(lat), std::move(bw)};
}

}  // namespace gb
