// selfcheck's judgements (core/selfcheck_analysis.hpp, core/selfcheck_outcome.hpp) on made-up
// figures whose answer is known.
#include <gtest/gtest.h>

#include <cmath>

#include "core/selfcheck_analysis.hpp"
#include "core/selfcheck_outcome.hpp"
#include "measured.hpp"

using namespace gb;
using namespace gb::selfcheck;

namespace {

Figure fig(double value, double se) {
  return {value, se, 20, StopReason::converged};
}

using gb::test::measured;

// The loop kernel at the five repeat differences, each with the agreement asked for.
Outcome outcome_of(std::initializer_list<double> differentials) {
  Outcome o;
  o.tolerance = 0.05;
  long d = 2048;
  for (const double v : differentials) {
    o.loop.push_back(
        judge_loop(10240, 10240 + d, measured(4.0, 0.001), measured(v, 0.01), 1.98e9, o.tolerance));
    d *= 2;
  }
  return o;
}

}  // namespace

TEST(SelfcheckAnalysis, FigureCarriesStandardErrorOfTheMean) {
  Measurement m;
  m.value = 4.0;
  m.stats.count = 25;
  m.stats.stddev = 0.5;
  m.stop = StopReason::budget;
  const Figure f = figure_of(m);
  EXPECT_DOUBLE_EQ(f.value, 4.0);
  EXPECT_DOUBLE_EQ(f.se, 0.1);
  EXPECT_EQ(f.samples, 25u);
  EXPECT_EQ(f.stop, StopReason::budget);
  m.stats.count = 0;  // no samples must not divide by zero
  EXPECT_DOUBLE_EQ(figure_of(m).se, 0.5);
}

TEST(SelfcheckAnalysis, NsBecomeCyclesAtTheGivenClock) {
  Measurement m;
  m.metric = Metric::latency;
  m.unit = "ns";
  m.value = 2.0;
  m.stats.mean = 2.0;
  m.stats.stddev = 0.5;
  m.stats.min = 1.0;
  m.stats.max = 3.0;
  m.stats.median = 2.0;
  m.stats.p95 = 2.5;
  m.stats.p99 = 2.9;
  m.stats.cv = 0.25;
  const Measurement c = ns_to_cycles(m, 2e9);  // 2 cycles per ns
  EXPECT_EQ(c.unit, "cycles");
  EXPECT_DOUBLE_EQ(c.value, 4.0);
  EXPECT_DOUBLE_EQ(c.stats.mean, 4.0);
  EXPECT_DOUBLE_EQ(c.stats.stddev, 1.0);
  EXPECT_DOUBLE_EQ(c.stats.min, 2.0);
  EXPECT_DOUBLE_EQ(c.stats.max, 6.0);
  EXPECT_DOUBLE_EQ(c.stats.p99, 5.8);
  EXPECT_DOUBLE_EQ(c.stats.cv, 0.25);  // relative: unchanged
}

TEST(SelfcheckAnalysis, DeviationIsRelativeToTheClockFigure) {
  EXPECT_NEAR(deviation(fig(4.2, 0), fig(4.0, 0)), 0.05, 1e-12);
  EXPECT_NEAR(deviation(fig(3.948, 0), fig(4.0, 0)), -0.013, 1e-12);
}

TEST(SelfcheckAnalysis, AgreesWithinTolerance) {
  EXPECT_EQ(judge_agreement(fig(4.1, 0.001), fig(4.0, 0.001), 0.05), Agreement::tolerance);
  EXPECT_EQ(judge_agreement(fig(3.81, 0.001), fig(4.0, 0.001), 0.05), Agreement::tolerance);
  EXPECT_EQ(to_string(Agreement::tolerance), "tolerance");
}

TEST(SelfcheckAnalysis, AgreesWithinTwoStandardErrorsBeyondTolerance) {
  // 10% apart, but the combined standard error is hypot(0.3, 0.1) = 0.316: 0.4 < 2 x 0.316.
  EXPECT_EQ(judge_agreement(fig(4.4, 0.3), fig(4.0, 0.1), 0.05), Agreement::two_se);
  EXPECT_EQ(to_string(Agreement::two_se), "2se");
}

// H100, base 10 trips, repeat difference 2048 (results/h100/selfcheck.txt): 13.6% apart with
// standard errors of 0.046 and 0.001 cycles, far beyond both criteria.
TEST(SelfcheckAnalysis, DisagreesBeyondToleranceAndTwoStandardErrors) {
  const Figure differential = fig(4.588, 0.046), clock = fig(4.038, 0.001);
  EXPECT_EQ(judge_agreement(differential, clock, 0.05), Agreement::none);
  EXPECT_EQ(to_string(Agreement::none), "none");
  // A wider tolerance lets it through: the judgement follows --tolerance.
  EXPECT_EQ(judge_agreement(differential, clock, 0.15), Agreement::tolerance);
}

TEST(SelfcheckAnalysis, FitsTheInstructionCacheWithinTheMargin) {
  const Figure base = fig(3.996, 0.001);
  EXPECT_TRUE(fits_icache(fig(4.000, 0.001), base));
  EXPECT_TRUE(fits_icache(fig(4.39, 0.001), base));  // +9.9%
  EXPECT_FALSE(fits_icache(fig(5.005, 0.001), base));
  EXPECT_FALSE(fits_icache(fig(3.5, 0.001), base));  // faster by more than the margin: not alike
}

TEST(SelfcheckAnalysis, LaunchDifferenceIsWhatTheClockDoesNotExplain) {
  // 2560 adds against 512 at 4 cycles/add each by the clock: 8192 extra cycles. The
  // differential figure says 4.377 per extra add: 2048 x 4.377 = 8964, so 772 cycles of launch.
  const LaunchDifference l =
      launch_difference(fig(4.377, 0.044), fig(4.0, 0), 2560, fig(4.0, 0), 512);
  EXPECT_NEAR(l.cycles, 2048 * 0.377, 1e-9);
  EXPECT_NEAR(l.se, 2048 * 0.044, 1e-9);
  EXPECT_DOUBLE_EQ(code_kib(2560), 40.0);
}

TEST(SelfcheckOutcome, JudgesALoopRow) {
  const LoopRow r =
      judge_loop(10240, 12288, measured(4.0, 0.001), measured(4.04, 0.01), 1.98e9, 0.05);
  EXPECT_EQ(r.difference, 2048);
  EXPECT_NEAR(r.deviation, 0.01, 1e-12);
  EXPECT_EQ(r.agreement, Agreement::tolerance);
  EXPECT_NEAR(r.sigma, 0.01 * std::sqrt(100.0), 1e-12);  // Eq. 8 spread, not the error
  EXPECT_DOUBLE_EQ(r.clock_hz, 1.98e9);
}

TEST(SelfcheckOutcome, PassesWhenEveryDifferenceAgrees) {
  const Outcome o = outcome_of({4.01, 4.0, 3.99, 4.02, 4.0});
  EXPECT_TRUE(passed(o));
  EXPECT_EQ(verdict(o),
            "the loop kernel's differential figure agrees with its clock figure at every repeat "
            "difference (within 5% at 2048, 4096, 8192, 16384, 32768)");
}

TEST(SelfcheckOutcome, FailsWhenOneDifferenceDisagrees) {
  const Outcome o = outcome_of({4.6, 4.0, 3.99, 4.02, 4.0});
  EXPECT_FALSE(passed(o));
  EXPECT_EQ(verdict(o),
            "the loop kernel's differential figure disagrees with its clock figure by more than "
            "5% and 2 standard errors at repeat difference 2048");
}

TEST(SelfcheckOutcome, FindsWhereTheChainStopsFitting) {
  Outcome o;
  o.reference = fig(3.996, 0.001);
  for (const auto& [adds, clock] :
       {std::pair{2560L, 3.999}, {5632L, 4.0}, {10752L, 5.005}, {20992L, 5.244}}) {
    o.chains.push_back(
        judge_chain(512, adds, measured(clock, 0.001), measured(clock, 0.04), o.reference));
  }
  ASSERT_NE(stops_fitting(o), nullptr);
  EXPECT_EQ(stops_fitting(o)->adds, 10752);
  EXPECT_EQ(stops_fitting(o)->difference, 10240);
  EXPECT_EQ(fit_summary(o),
            "the unrolled chain stops fitting the instruction cache at 10752 adds (168 KiB of "
            "code): 5.005 cycles/add against 3.996");
  o.chains.resize(2);
  EXPECT_EQ(stops_fitting(o), nullptr);
  EXPECT_EQ(fit_summary(o),
            "the unrolled chain fits the instruction cache up to 5632 adds (88 KiB of code), the "
            "longest compiled in");
}
