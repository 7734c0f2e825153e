// Unresolved figures (core/resolution.hpp, results/SCHEMA.md "Unresolved figures") and the clock
// twin's cycle bound (core/bounds.hpp), on the figures of committed rows.
#include <gtest/gtest.h>

#include "core/bounds.hpp"
#include "core/resolution.hpp"

using namespace gb;

namespace {

// An Eq. 6 figure as kernel.fusion writes it: value, Eq. 8 sigma, pairs.
Measurement eq6(double value, double sigma, std::size_t pairs) {
  Measurement m;
  m.metric = Metric::launch_overhead;
  m.unit = "ns";
  m.technique = Technique::fusion;
  m.statistic = Statistic::eq6;
  m.value = m.stats.mean = value;
  m.stats.stddev = sigma;
  m.stats.count = pairs;
  m.note = "100 launches x 10 units against the converse, 20000 ns units, <<<>>>";
  return m;
}

}  // namespace

TEST(Resolution, StudentQuantileMatchesTheTables) {
  const std::pair<long, double> table[] = {{1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},
                                           {9, 2.262},  {19, 2.093}, {31, 2.040}, {99, 1.984}};
  for (const auto& [df, t] : table) EXPECT_NEAR(t975(df), t, 2e-3) << df;
}

TEST(Resolution, IntervalOfTheMean) {
  const auto ci = interval95(10, 20, 10);  // 10 +- 2.2622 x 20 / sqrt(10)
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->lo, -4.307, 2e-3);
  EXPECT_NEAR(ci->hi, 24.307, 2e-3);
  EXPECT_FALSE(interval95(10, 20, 1));  // one sample: no interval
  EXPECT_FALSE(interval95(10, -1, 10));
}

TEST(Resolution, CommittedEq6RowsAroundZeroAreUnresolved) {
  // results/h100x2/launch-types.csv line 2: -37.7 ns, sigma 179 ns, 32 pairs.
  EXPECT_EQ(unresolved_reason(eq6(-37.7229, 179.157, 32)),
            "95% interval -102..26.9 ns includes zero, below 26.9 ns");
  // results/h100/2026-11-28/launch-types.csv line 3: 0.216 ns at cv 690.
  EXPECT_EQ(unresolved_reason(eq6(0.215926, 148.949, 30)),
            "95% interval -55.4..55.8 ns includes zero, below 55.8 ns");
  // Line 2 of the same file, 1031 ns +- 18 over 10 pairs, is resolved.
  EXPECT_EQ(unresolved_reason(eq6(1031, 18.16, 10)), "");
  // A median is not a difference of means: no interval rule.
  Measurement median = eq6(0.2, 150, 30);
  median.statistic = Statistic::median;
  EXPECT_EQ(unresolved_reason(median), "");
}

TEST(Resolution, MarkedUnverifiedWithAPartOfItsOwnAfterVerified) {
  Measurement m = eq6(-1.06979, 344.665, 32);
  m.note = "verified; " + m.note;
  EXPECT_TRUE(mark_unresolved(m));
  EXPECT_EQ(m.status, Status::unverified);
  EXPECT_EQ(m.note,
            "verified; 100 launches x 10 units against the converse, 20000 ns units, <<<>>>; "
            "unresolved: 95% interval -125..123 ns includes zero, below 123 ns");
  Measurement resolved = eq6(1031, 18.16, 10);
  EXPECT_FALSE(mark_unresolved(resolved));
  EXPECT_EQ(resolved.status, Status::ok);
  Measurement skipped = eq6(0, 100, 30);
  skipped.status = Status::skipped;
  EXPECT_FALSE(mark_unresolved(skipped));
  EXPECT_EQ(skipped.status, Status::skipped);
  Measurement eq7 = eq6(3, 100, 20);  // a differential figure: the same rule
  eq7.statistic = Statistic::eq7;
  eq7.metric = Metric::latency;
  EXPECT_TRUE(mark_unresolved(eq7));
}

TEST(Resolution, ClockNanosecondsHeldToTheCycleBound) {
  // results/h100x2/reduction.csv line 5: 0.0429 ns of one dependent shared-memory load at
  // 1980 MHz, 0.085 cycles, written ok beside its cycle row.
  const std::vector<Bound> bounds{{Metric::latency_cycles, 1.0, std::nullopt,
                                   "a dependent shared-memory load takes at least one cycle"}};
  Measurement ns;
  ns.metric = Metric::latency;
  ns.unit = "ns";
  ns.technique = Technique::clock;
  ns.value = 0.0429096;
  ns.sm_clock_hz = 1980e6;
  EXPECT_EQ(bound_violation(bounds, ns),
            "latency 0.0429096 ns is 0.084961 cycles at 1980 MHz, below 1 (a dependent "
            "shared-memory load takes at least one cycle)");
  ns.value = 15.0;  // 29.7 cycles
  EXPECT_EQ(bound_violation(bounds, ns), "");
  ns.value = 0.0429096;
  ns.sm_clock_hz = 0;  // no clock measured: nothing to convert with
  EXPECT_EQ(bound_violation(bounds, ns), "");
}
