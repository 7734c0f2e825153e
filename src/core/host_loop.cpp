#include <algorithm>
#include <chrono>

#include "core/adaptive.hpp"
#include "core/techniques.hpp"

namespace gb {

Measurement host_loop(const RunContext& ctx, const std::function<void()>& step, int warmup) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup; ++i) step();
  // Batches keep the per-rank maximum (one allreduce per batch) off the timed path.
  constexpr std::size_t kBatch = 100;
  std::vector<double> samples;
  std::vector<double> batch(kBatch);
  AdaptiveStop stop(ctx);
  do {
    for (auto& t : batch) {
      const auto t0 = clock::now();
      step();
      t = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
    }
    ctx.max_over_ranks(batch);
    samples.insert(samples.end(), batch.begin(), batch.end());
  } while (stop.more(samples.size(), summarize(samples).relative_standard_error()));

  return host_loop_result(samples, stop.reason());
}

void append_slowest(std::vector<double>& samples_ns,
                    const std::vector<std::vector<double>>& per_member, int steps) {
  for (int i = 0; i < steps; ++i) {
    double worst = 0;
    for (const auto& t : per_member) worst = std::max(worst, t[i]);
    samples_ns.push_back(worst);
  }
}

Measurement host_loop_result(const std::vector<double>& samples_ns, StopReason stop) {
  return median_figure(samples_ns, Metric::latency, "ns", Technique::host_loop, stop);
}

}  // namespace gb
