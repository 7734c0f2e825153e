// A loop of calls issued back to back is no barrier: its figures are named `interval` and
// `loop_interval` (core/back_to_back.hpp), never `latency` / `loop_latency`, so that no reader
// takes them for a barrier's latency, and they keep the time bound (above zero).
#include <gtest/gtest.h>

#include "core/back_to_back.hpp"
#include "core/bounds.hpp"

namespace gb {
namespace {

TEST(BackToBack, MetricsAreNamedIntervals) {
  EXPECT_EQ(back_to_back_metric("latency"), "interval");
  EXPECT_EQ(back_to_back_metric("loop_latency"), "loop_interval");
  EXPECT_EQ(back_to_back_metric("bandwidth"), "bandwidth");
  Measurement m;
  m.metric = "loop_latency";
  m.value = 169;
  m.note = "verified";
  const Measurement b = as_back_to_back(m);
  EXPECT_EQ(b.metric, "loop_interval");
  EXPECT_EQ(b.value, 169);
  EXPECT_EQ(b.note, "verified");
}

TEST(BackToBack, IntervalsAreTimes) {
  for (const char* metric : {"interval", "loop_interval"}) {
    Measurement zero;
    zero.metric = metric;
    zero.value = 0;
    EXPECT_TRUE(apply_bounds(time_bounds(), zero)) << metric;
    EXPECT_EQ(zero.status, Status::unverified) << metric;
  }
}

}  // namespace
}  // namespace gb
