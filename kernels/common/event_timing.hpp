// The `event` technique: cudaEvents around one enqueued GPU operation (a whole reduction, a
// copy, a streaming kernel), sampled until the adaptive criterion stops; figures whose work is
// long against an event's resolution (about 0.5 us) or that include their launches on purpose.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/adaptive.hpp"
#include "core/cuda_check.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/statistics.hpp"

namespace gb {

struct EventSamples {
  std::vector<double> ns;
  std::string stop;
};

// Samples of `sample()` until the adaptive criterion stops (after one warm-up call).
inline EventSamples sampled(const RunContext& ctx, const std::function<double()>& sample) {
  sample();
  EventSamples out;
  AdaptiveStop adaptive(ctx);
  do {
    out.ns.push_back(sample());
  } while (adaptive.more(out.ns.size(), summarize(out.ns).relative_standard_error()));
  out.stop = adaptive.reason();
  return out;
}

// `op()` enqueues the work on `stream`; one warm-up run, then one sample per run. Under MPI the
// sample is the slowest rank's.
inline EventSamples event_samples(const RunContext& ctx, cudaStream_t stream,
                                  const std::function<void()>& op) {
  cudaEvent_t start, stop;
  GB_CUDA_CHECK(cudaEventCreate(&start));
  GB_CUDA_CHECK(cudaEventCreate(&stop));
  EventSamples out;
  try {
    out = sampled(ctx, [&] {
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

// A figure of `values` (its median), technique `technique`.
inline Measurement figure_of(std::vector<double> values, std::string metric, std::string unit,
                             std::string technique, std::string stop) {
  Measurement m;
  m.metric = std::move(metric);
  m.unit = std::move(unit);
  m.technique = std::move(technique);
  m.statistic = "median";
  m.stats = summarize(values);
  m.value = m.stats.median;
  m.stop = std::move(stop);
  m.samples = std::move(values);
  return m;
}

// The bandwidth figure of latency samples (ns) that each moved `bytes`: bytes/ns per sample, in
// `unit` (B/ns and GB/s are the same number).
inline Measurement bandwidth_of(const std::vector<double>& ns, double bytes, std::string metric,
                                std::string unit, std::string technique, std::string stop) {
  std::vector<double> rate(ns.size());
  for (std::size_t i = 0; i < ns.size(); ++i) rate[i] = bytes / ns[i];
  return figure_of(std::move(rate), std::move(metric), std::move(unit), std::move(technique),
                   std::move(stop));
}

// latency (ns) and bandwidth (bytes / latency) of event samples.
inline std::vector<Measurement> latency_and_bandwidth(EventSamples s, double bytes,
                                                      std::string bandwidth_unit) {
  Measurement bw =
      bandwidth_of(s.ns, bytes, "bandwidth", std::move(bandwidth_unit), "event", s.stop);
  Measurement lat = figure_of(std::move(s.ns), "latency", "ns", "event", s.stop);
  return {std::move(lat), std::move(bw)};
}

}  // namespace gb
