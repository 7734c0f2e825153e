#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/statistics.hpp"

using gb::summarize;

TEST(Statistics, SummaryOfKnownSample) {
  const std::vector<double> v{4, 1, 3, 2, 5};
  const auto s = summarize(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_NEAR(s.stddev, std::sqrt(2.5), 1e-12);
  EXPECT_NEAR(s.cv, std::sqrt(2.5) / 3, 1e-12);
  EXPECT_NEAR(s.p95, 4.8, 1e-12);  // linear interpolation between ranks 3 and 4
  EXPECT_NEAR(s.p99, 4.96, 1e-12);
}

TEST(Statistics, EmptyAndSingle) {
  EXPECT_EQ(summarize(std::vector<double>{}).count, 0u);
  const auto one = summarize(std::vector<double>{7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_TRUE(std::isinf(one.relative_standard_error()));
}

TEST(Statistics, RelativeStandardErrorShrinksWithSamples) {
  std::vector<double> v;
  for (int i = 0; i < 100; ++i) v.push_back(100 + (i % 2 ? 1 : -1));
  const auto s = summarize(v);
  EXPECT_NEAR(s.relative_standard_error(), s.stddev / 10 / 100, 1e-12);
}
