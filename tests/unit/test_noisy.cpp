// The noisy rule (core/noisy.hpp, results/SCHEMA.md "Noisy figures").
#include <gtest/gtest.h>

#include "core/noisy.hpp"
#include "core/record.hpp"
#include "core/run_context.hpp"
#include "core/scale.hpp"

using namespace gb;

namespace {

Measurement figure(const std::string& statistic, double cv, const std::string& stop,
                   double mean = 100, double median = 100) {
  Measurement m;
  m.statistic = parse_name<Statistic>(statistic, "statistic");
  m.stats.cv = cv;
  m.stats.mean = mean;
  m.stats.median = median;
  m.stop = parse_name<StopReason>(stop, "stop reason");
  m.note = "verified";
  return m;
}

}  // namespace

TEST(Noisy, QuietFiguresAreNotMarked) {
  EXPECT_EQ(noisy_reason(figure("median", 0.25, "converged")), "");
  EXPECT_EQ(noisy_reason(figure("median", 0.05, "budget")), "");
  EXPECT_EQ(noisy_reason(figure("eq7", 0.01, "converged", 110, 100)), "");
}

TEST(Noisy, LargeCvIsNoisyWhateverStoppedSampling) {
  EXPECT_EQ(noisy_reason(figure("median", 0.3, "converged")), "cv 0.3 > 0.25");
}

TEST(Noisy, BudgetStopNeedsASmallerCv) {
  EXPECT_EQ(noisy_reason(figure("median", 0.06, "budget")), "time budget spent at cv 0.06 > 0.05");
  EXPECT_EQ(noisy_reason(figure("median", 0.06, "converged")), "");
}

TEST(Noisy, MeanFarFromMedianOnlyForStatisticsOnMeans) {
  EXPECT_EQ(noisy_reason(figure("eq7", 0.01, "converged", 120, 100)),
            "mean and median differ by 20% > 10%");
  EXPECT_NE(noisy_reason(figure("eq6", 0.01, "converged", 80, 100)), "");
  EXPECT_NE(noisy_reason(figure("loop-mean-max-threads", 0.01, "converged", 80, 100)), "");
  EXPECT_EQ(noisy_reason(figure("median", 0.01, "converged", 80, 100)), "");
  EXPECT_TRUE(computed_on_means(Statistic::eq7));
  EXPECT_TRUE(computed_on_means(Statistic::loop_mean_avg_ranks));
  EXPECT_FALSE(computed_on_means(Statistic::median));
  EXPECT_FALSE(computed_on_means(Statistic::count));
}

TEST(Noisy, ReasonsAreJoinedAndAppendedToTheNote) {
  Measurement m = figure("eq7", 0.5, "budget", 150, 100);
  mark_noisy(m);
  EXPECT_EQ(m.note, "verified; noisy: cv 0.5 > 0.25, mean and median differ by 50% > 10%");
  EXPECT_EQ(m.status, Status::ok);
  Measurement bare = figure("median", 0.3, "converged");
  bare.note.clear();
  mark_noisy(bare);
  EXPECT_EQ(bare.note, "noisy: cv 0.3 > 0.25");
}

TEST(Noisy, RecordsAreMarkedWhenTheyGetTheirFigure) {
  const RunContext ctx;
  const Record r =
      with_figure(make_record(ctx, "r", MethodId{"m", Level::host, 0}, Point{}, "", Status::ok, ""),
                  figure("median", 0.4, "budget"));
  EXPECT_EQ(r.figure.note, "verified; noisy: cv 0.4 > 0.25");
  EXPECT_EQ(r.figure.status, Status::ok);
}

TEST(Scale, EveryFigureAndSampleButNotTheCountOrCv) {
  Measurement m = figure("median", 0.1, "converged", 100, 90);
  m.value = 90;
  m.stats.count = 2;
  m.samples = {80, 100};
  scale_figures(m, 0.5);
  EXPECT_EQ(m.value, 45);
  EXPECT_EQ(m.stats.mean, 50);
  EXPECT_EQ(m.stats.median, 45);
  EXPECT_EQ(m.stats.cv, 0.1);
  EXPECT_EQ(m.stats.count, 2u);
  EXPECT_EQ(m.samples, (std::vector<double>{40, 50}));
}
