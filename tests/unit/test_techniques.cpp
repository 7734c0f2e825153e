// The techniques on synthetic runs whose true answer is known.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "core/adaptive.hpp"
#include "core/techniques.hpp"
#include "quick_context.hpp"

using namespace gb;

using test::quick_context;

TEST(Differential, RecoversPerRepCostAndCancelsOverhead) {
  RunContext ctx = quick_context();
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0, 1e-7);  // 100 ns of jitter per run
  const double per_rep = 1.0e-6, overhead = 8e-6;
  const auto m =
      differential(ctx, [&](long reps) { return overhead + reps * per_rep + noise(rng); });
  EXPECT_NEAR(m.value, 1000.0, 1.0);  // ns
  EXPECT_EQ(m.reps_lo, 512);
  EXPECT_EQ(m.reps_hi, 5632);
  EXPECT_EQ(m.technique, Technique::differential);
  // Eq. 8: sigma = sqrt(s_hi^2 + s_lo^2) / dR ~ sqrt(2) * 100 ns / 5120
  EXPECT_NEAR(m.stats.stddev, std::sqrt(2.0) * 100.0 / 5120, 0.02);
  EXPECT_EQ(m.stop, StopReason::converged);
}

// A steady drift (each run 20 ns slower than the one before: warming, a neighbour ramping up):
// in a fixed order the second run of every pair would be 20 ns slower than the first, a bias of
// 20 ns / (R_hi - R_lo) per rep; alternating a b / b a cancels it.
TEST(Differential, AlternatingOrderCancelsDrift) {
  RunContext ctx = quick_context();
  ctx.options.samples = 40;
  ctx.options.reps_lo = 10;
  ctx.options.reps_hi = 20;  // a 20 ns drift would be 2 ns per rep, 0.2% of 1000 ns
  const double per_rep = 1.0e-6, drift = 20e-9;
  long calls = 0;
  const auto m =
      differential(ctx, [&](long reps) { return 8e-6 + reps * per_rep + drift * calls++; });
  EXPECT_EQ(m.stats.count % 2, 0u) << "pairs come in a b / b a couples";
  EXPECT_NEAR(m.value, 1000.0, 0.01);
}

TEST(Differential, Eq8SigmaFromExactSeries) {
  RunContext ctx = quick_context();
  ctx.options.samples = 4;
  ctx.options.rse_target = 1e12;  // converged as soon as it has the minimum sample count
  // hi alternates 10/14 us, lo alternates 2/4 us: s_hi = 2.309 us, s_lo = 1.155 us.
  int calls_hi = 0, calls_lo = 0;
  const auto m = differential(ctx, [&](long reps) {
    if (reps == ctx.options.reps_hi) return (calls_hi++ % 2 ? 14e-6 : 10e-6);
    return (calls_lo++ % 2 ? 4e-6 : 2e-6);
  });
  // warm-up consumed one call each, so samples are 14,10,14,10 and 4,2,4,2
  const double s_hi = std::sqrt(16.0 / 3) * 1e3, s_lo = std::sqrt(4.0 / 3) * 1e3;  // ns
  EXPECT_NEAR(m.stats.stddev, std::sqrt(s_hi * s_hi + s_lo * s_lo) / 5120, 1e-9);
  EXPECT_NEAR(m.value, (12e3 - 3e3) / 5120, 1e-9);
  EXPECT_EQ(m.stop, StopReason::converged);
  EXPECT_EQ(m.stats.count, 4u);
}

TEST(HostLoop, TimesEachStep) {
  RunContext ctx = quick_context();
  const auto m = host_loop(ctx, [] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < until) {
    }
  });
  EXPECT_GE(m.value, 20000.0);
  EXPECT_GE(m.stats.count, 100u);
  EXPECT_EQ(m.technique, Technique::host_loop);
  EXPECT_NE(m.stop, StopReason::none);
}

TEST(ClockTechnique, ConvertsCyclesWithMeasuredClock) {
  RunContext ctx = quick_context();
  const auto ms = clock_technique(
      ctx, [] { return 20.0; }, choose_sm_clock(2.0e9, 0, 0), 4096);
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].sm_clock_source, "estimate");
  EXPECT_EQ(ms[1].note, "SM clock 2000 MHz measured");
  EXPECT_EQ(ms[0].metric, Metric::latency_cycles);
  EXPECT_DOUBLE_EQ(ms[0].value, 20.0);
  EXPECT_EQ(ms[1].unit, "ns");
  EXPECT_DOUBLE_EQ(ms[1].value, 10.0);
  EXPECT_EQ(ms[0].stop, StopReason::converged);
}

TEST(AdaptiveStop, BudgetEndsNoisySampling) {
  RunContext ctx = quick_context();
  ctx.options.time_budget_s = 0.05;
  AdaptiveStop stop(ctx);
  std::size_t n = 0;
  while (stop.more(n, 1.0)) {
    ++n;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(stop.reason(), StopReason::budget);
  EXPECT_GE(n, 10u);
}

TEST(AdaptiveStop, BudgetEndsSamplingBeforeTheMinimumCount) {
  RunContext ctx = quick_context();
  ctx.options.samples = 1000000000;
  ctx.options.time_budget_s = 1e-9;
  AdaptiveStop stop(ctx);
  EXPECT_TRUE(stop.more(1, 1.0)) << "a spread needs two samples";
  EXPECT_FALSE(stop.more(kMinSamples, 1.0));
  EXPECT_EQ(stop.reason(), StopReason::budget);
}

TEST(AdaptiveStop, KeepsAtMostTheMostSamples) {
  RunContext ctx = quick_context();
  ctx.options.samples = 1000000000;
  ctx.options.time_budget_s = 1e7;
  AdaptiveStop stop(ctx);
  EXPECT_TRUE(stop.more(kMaxSamples - 1, 1.0));
  EXPECT_FALSE(stop.more(kMaxSamples, 1.0));
  EXPECT_EQ(stop.reason(), StopReason::budget);
}

TEST(AdaptiveStop, NeverConvergesBeforeMinimumSamples) {
  RunContext ctx = quick_context();
  AdaptiveStop stop(ctx);
  EXPECT_TRUE(stop.more(9, 0.0));
  EXPECT_FALSE(stop.more(10, 0.0));
  EXPECT_EQ(stop.reason(), StopReason::converged);
}

TEST(HostLoop, StepFigureIsTheSlowestMember) {
  std::vector<double> samples{7.0};
  append_slowest(samples, {{1, 5, 2}, {4, 3, 2}}, 2);
  EXPECT_EQ(samples, (std::vector<double>{7, 4, 5}));
}
