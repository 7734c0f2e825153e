// A loop of calls issued back to back is no barrier: its figures are named `interval` and
// `loop_interval` (core/back_to_back.hpp), never `latency` / `loop_latency`, so that no reader
// takes them for a barrier's latency, and they keep the time bound (above zero).
#include <gtest/gtest.h>

#include "core/back_to_back.hpp"
#include "core/bounds.hpp"

namespace gb {
namespace {

TEST(BackToBack, MetricsAreNamedIntervals) {
  EXPECT_EQ(back_to_back_metric(Metric::latency), Metric::interval);
  EXPECT_EQ(back_to_back_metric(Metric::loop_latency), Metric::loop_interval);
  EXPECT_EQ(back_to_back_metric(Metric::bandwidth), Metric::bandwidth);
  Measurement m;
  m.metric = Metric::loop_latency;
  m.value = 169;
  m.note = "verified";
  const Measurement b = as_back_to_back(m);
  EXPECT_EQ(b.metric, Metric::loop_interval);
  EXPECT_EQ(b.value, 169);
  EXPECT_EQ(b.note, "verified");
}

TEST(BackToBack, IntervalsAreTimes) {
  for (Metric metric : {Metric::interval, Metric::loop_interval}) {
    Measurement zero;
    zero.metric = metric;
    zero.value = 0;
    EXPECT_TRUE(apply_bounds(time_bounds(), zero)) << name_of(metric);
    EXPECT_EQ(zero.status, Status::unverified) << name_of(metric);
  }
}

}  // namespace
}  // namespace gb
