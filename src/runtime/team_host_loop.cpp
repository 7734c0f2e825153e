#include "runtime/team_host_loop.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/adaptive.hpp"
#include "core/techniques.hpp"

namespace gb::mg {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBatch = 100, kWarmup = 50;

// mpi mode with a prelude: host_loop's batches, with the prelude and a barrier of every rank
// before each timed step.
Measurement rank_loop_with_prelude(const RunContext& ctx, const std::function<void()>& step,
                                   const std::function<void()>& prelude) {
  for (int i = 0; i < kWarmup; ++i) step();
  std::vector<double> samples, batch(kBatch);
  AdaptiveStop stop(ctx);
  do {
    for (auto& t : batch) {
      prelude();
      ctx.launch.barrier();
      const auto t0 = Clock::now();
      step();
      t = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    }
    ctx.max_over_ranks(batch);
    samples.insert(samples.end(), batch.begin(), batch.end());
  } while (stop.more(samples.size(), summarize(samples).relative_standard_error()));
  return host_loop_result(samples, stop.reason());
}

}  // namespace

Measurement team_host_loop(const RunContext& ctx, const Team& team,
                           const std::function<void(int local)>& step,
                           const std::function<void(int local)>& prelude) {
  if (team.mode() == Mode::mpi) {
    Measurement m;
    team.parallel([&](int l) {
      m = prelude ? rank_loop_with_prelude(
                        ctx, [&] { step(l); }, [&] { prelude(l); })
                  : host_loop(ctx, [&] { step(l); });
    });
    return m;
  }
  std::vector<std::vector<double>> per_member(team.local_count(), std::vector<double>(kBatch));
  std::vector<double> samples;
  AdaptiveStop stop(ctx);
  bool more = true;
  // One parallel region for the whole loop: no fork/join inside the timed steps. The orphaned
  // barrier and single below bind to the region Team::parallel opens. Nothing here throws past
  // them: `step` and `prelude` guard their own work (Team::guard), and the single's statistics
  // throw only when memory runs out.
  team.parallel([&](int l) {
    for (int i = 0; i < kWarmup; ++i) step(l);
    auto& mine = per_member[l];
    do {
#pragma omp barrier
      for (auto& t : mine) {
        if (prelude) {
          prelude(l);
#pragma omp barrier
        }
        const auto t0 = Clock::now();
        step(l);
        t = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
      }
#pragma omp barrier
#pragma omp single
      {
        append_slowest(samples, per_member, kBatch);
        more = stop.more(samples.size(), summarize(samples).relative_standard_error());
      }
    } while (more);
  });
  return host_loop_result(samples, stop.reason());
}

Measurement team_loop_latency(const RunContext& ctx, const Team& team, LoopConvention convention,
                              const std::function<void(int local)>& step,
                              const std::function<void(int local)>& finish) {
  convention.members = team.mode() == Mode::mpi ? LoopMember::rank : LoopMember::thread;
  ReferenceLoop loop(ctx, convention, team.local_count());
  const std::function<void()> sync = team.local_count() > 1 ? [] {
#pragma omp barrier
  } : std::function<void()>{};
  // One parallel region for every loop; the orphaned barrier binds to the region
  // Team::parallel opens.
  team.parallel([&](int l) {
    std::function<void()> done;
    if (finish) done = [&, l] { finish(l); };
    loop.run_member(
        l, [&, l] { step(l); }, done, sync);
  });
  loop.settle();
  return loop.result();
}

}  // namespace gb::mg
