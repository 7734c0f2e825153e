// The fusion technique (the study's Eq. 6) on synthetic kernels whose launch overhead is known.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/fusion.hpp"
#include "errors/errors.hpp"
#include "quick_context.hpp"

using namespace gb;

using test::quick_context;

TEST(FusionOverhead, Eq6) {
  // 100 launches of 10 units against 10 launches of 100 units: 90 launches apart.
  EXPECT_DOUBLE_EQ(fusion_overhead(1'090'000, 1'000'000, 100, 10), 1000.0);
  // The same pair written the other way round gives the same overhead.
  EXPECT_DOUBLE_EQ(fusion_overhead(1'000'000, 1'090'000, 10, 100), 1000.0);
  EXPECT_THROW(fusion_overhead(1, 1, 5, 5), UsageError);
  EXPECT_THROW(fusion_overhead(1, 1, 0, 5), UsageError);
  EXPECT_THROW(fusion_overhead(1, 1, 5, -1), UsageError);
}

TEST(Fusion, RecoversHiddenLaunchOverheadAndCancelsWorkAndSync) {
  RunContext ctx = quick_context();
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0, 2e-7);  // 200 ns of jitter per run
  const double overhead = 1.1e-6, unit = 1e-6, sync = 9e-6;
  long calls = 0;
  const auto m = fusion(
      ctx,
      [&](long launches, long units) {
        ++calls;
        return sync + launches * (overhead + units * unit) + noise(rng);
      },
      100, 10);
  EXPECT_NEAR(m.value, 1100.0, 5.0);  // ns
  EXPECT_EQ(m.metric, Metric::launch_overhead);
  EXPECT_EQ(m.unit, "ns");
  EXPECT_EQ(m.technique, Technique::fusion);
  EXPECT_EQ(m.reps_hi, 100);
  EXPECT_EQ(m.reps_lo, 10);
  EXPECT_EQ(m.stop, StopReason::converged);
  EXPECT_EQ(calls, 2 + 2 * static_cast<long>(m.stats.count));  // warm-up pair, then pairs
  // sigma = sqrt(s_ij^2 + s_ji^2) / (i - j) ~ sqrt(2) * 200 ns / 90
  EXPECT_NEAR(m.stats.stddev, std::sqrt(2.0) * 200.0 / 90, 1.0);
}

TEST(Fusion, SigmaFromExactSeries) {
  RunContext ctx = quick_context();
  ctx.options.samples = 4;
  ctx.options.rse_target = 1e12;  // converged as soon as it has the minimum sample count
  int n_ij = 0, n_ji = 0;
  // L_ij alternates 120/140 us, L_ji alternates 100/104 us (after one warm-up call each).
  const auto m = fusion(
      ctx,
      [&](long launches, long) {
        if (launches == 20) return (n_ij++ % 2 ? 140e-6 : 120e-6);
        return (n_ji++ % 2 ? 104e-6 : 100e-6);
      },
      20, 10);
  const double s_ij = std::sqrt(4.0 * 100 / 3) * 1e3, s_ji = std::sqrt(4.0 * 4 / 3) * 1e3;  // ns
  EXPECT_NEAR(m.value, (130e3 - 102e3) / 10, 1e-6);
  EXPECT_NEAR(m.stats.stddev, std::sqrt(s_ij * s_ij + s_ji * s_ji) / 10, 1e-6);
  EXPECT_EQ(m.stats.count, 4u);
  EXPECT_EQ(m.stop, StopReason::converged);
}

TEST(Fusion, RejectsEqualCountsBeforeRunning) {
  RunContext ctx = quick_context();
  bool ran = false;
  auto run = [&](long, long) {
    ran = true;
    return 0.0;
  };
  EXPECT_THROW(fusion(ctx, run, 8, 8), UsageError);
  EXPECT_FALSE(ran);
}

TEST(FusionPointUsable, KernelsAtLeastAsLongAsTheStudyAsks) {
  // The shorter kernels, min(i, j) units: 10 x 1000 ns = 10 us passes the study's 5 us floor
  // (section 9.2); 10 x 100 ns, or 2 x 2000 ns, measure the host's launches instead.
  auto point = [](long i, long j, long unit) {
    return Point({{"blocks_per_sm", 1},
                  {"threads_per_block", 128},
                  {"fusion_i", i},
                  {"fusion_j", j},
                  {"unit_ns", unit}});
  };
  EXPECT_TRUE(fusion_point_usable(point(100, 10, 1000)).ok);
  EXPECT_TRUE(fusion_point_usable(point(10, 100, 500)).ok);  // 10 x 500 = 5 us
  const Usability short_units = fusion_point_usable(point(100, 10, 100));
  EXPECT_FALSE(short_units.ok);
  EXPECT_NE(short_units.reason.find("1000 ns are shorter than the 5000 ns Eq. 6 needs"),
            std::string::npos)
      << short_units.reason;
  EXPECT_FALSE(fusion_point_usable(point(2, 100, 2000)).ok);
}
