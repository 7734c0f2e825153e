// Physical bounds (Method::bounds, core/bounds.hpp): a figure within them keeps its status and
// note; one outside becomes `unverified`, its note starting with the bound it broke; the runner
// applies them to every measured row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/bounds.hpp"
#include "core/registry.hpp"
#include "core/runner.hpp"
#include "core/state.hpp"
#include "quick_context.hpp"

using namespace gb;

namespace {

Measurement figure(Metric metric, double value, std::string note = {}) {
  Measurement m;
  m.metric = metric;
  m.value = value;
  m.note = std::move(note);
  return m;
}

const std::vector<Bound> kCycles{
    {Metric::latency_cycles, 1.0, std::nullopt, "one load takes a cycle"},
    {Metric::bandwidth_cycles, std::nullopt, 128.0, "128 B per cycle per SM"}};

}  // namespace

TEST(Bounds, WithinStaysOkWithItsNote) {
  for (Measurement m :
       {figure(Metric::latency_cycles, 1.0, "verified"),  // the bound itself is in
        figure(Metric::latency_cycles, 30.5, "verified"),
        figure(Metric::bandwidth_cycles, 128.0, "c"), figure(Metric::bandwidth_cycles, 0.0)}) {
    const std::string note = m.note;
    EXPECT_FALSE(apply_bounds(kCycles, m)) << name_of(m.metric) << " " << m.value;
    EXPECT_EQ(m.status, Status::ok);
    EXPECT_EQ(m.note, note);
  }
}

TEST(Bounds, BelowMinBecomesUnverifiedWithTheBoundFirst) {
  Measurement m = figure(Metric::latency_cycles, 0.5, "verified; 1024 threads");
  EXPECT_TRUE(apply_bounds(kCycles, m));
  EXPECT_EQ(m.status, Status::unverified);
  EXPECT_EQ(m.note,
            "outside physical bound: latency_cycles 0.5 below 1 (one load takes a cycle); "
            "verified; 1024 threads");
}

TEST(Bounds, AboveMaxBecomesUnverified) {
  Measurement m = figure(Metric::bandwidth_cycles, 250.0);
  EXPECT_TRUE(apply_bounds(kCycles, m));
  EXPECT_EQ(m.status, Status::unverified);
  EXPECT_EQ(m.note, "outside physical bound: bandwidth_cycles 250 above 128 (128 B per cycle per SM)");
}

TEST(Bounds, OtherMetricsAndUnmeasuredFiguresAreLeftAlone) {
  Measurement other = figure(Metric::bandwidth, 1e9, "n");
  EXPECT_FALSE(apply_bounds(kCycles, other));
  EXPECT_EQ(other.status, Status::ok);
  // A timeout, failed or skipped figure has no value to judge: status and note stay.
  for (Status s : {Status::timeout, Status::failed, Status::skipped}) {
    Measurement m = figure(Metric::latency_cycles, 0, "watchdog expired");
    m.status = s;
    EXPECT_FALSE(apply_bounds(kCycles, m));
    EXPECT_EQ(m.status, s);
    EXPECT_EQ(m.note, "watchdog expired");
  }
  // An unverified figure (its barrier check failed) also says the bound, first.
  Measurement bad = figure(Metric::latency_cycles, 0.25, "barrier check failed: 3 late");
  bad.status = Status::unverified;
  EXPECT_TRUE(apply_bounds(kCycles, bad));
  EXPECT_EQ(bad.note.rfind("outside physical bound: latency_cycles 0.25 below 1", 0), 0u)
      << bad.note;
}

TEST(Bounds, EveryTimeIsPositiveByDefault) {
  const std::vector<Bound> times = time_bounds();
  for (Metric metric :
       {Metric::latency, Metric::loop_latency, Metric::latency_cycles, Metric::launch_interval,
        Metric::launch_overhead, Metric::one_way_latency}) {
    Measurement zero = figure(metric, 0.0);
    EXPECT_TRUE(apply_bounds(times, zero)) << name_of(metric);
    EXPECT_EQ(zero.status, Status::unverified);
    EXPECT_EQ(zero.note, std::string("outside physical bound: ") + std::string(name_of(metric)) +
                             " 0 at or below 0 (a time is above zero)");
    Measurement negative = figure(metric, -3.5, "verified");
    EXPECT_TRUE(apply_bounds(times, negative)) << name_of(metric);
    Measurement nan = figure(metric, std::numeric_limits<double>::quiet_NaN());
    EXPECT_TRUE(apply_bounds(times, nan)) << name_of(metric);
    Measurement tiny = figure(metric, 1e-3, "verified");
    EXPECT_FALSE(apply_bounds(times, tiny)) << name_of(metric);
    EXPECT_EQ(tiny.status, Status::ok);
  }
  // Every registered method states at least these; model.smem.stream adds its own.
  for (const auto& m : Registry::instance().create_all()) {
    const std::vector<Bound> b = m->bounds();
    for (const Bound& t : times)
      EXPECT_TRUE(std::any_of(b.begin(), b.end(),
                              [&](const Bound& x) {
                                return x.metric == t.metric && x.min == t.min && x.min_exclusive &&
                                       !x.max;
                              }))
          << m->name() << " " << name_of(t.metric);
    if (m->name() == "model.smem.stream") {
      Measurement half = figure(Metric::latency_cycles, 0.5);
      EXPECT_TRUE(apply_bounds(b, half));
      EXPECT_EQ(half.note.rfind("outside physical bound: latency_cycles 0.5 below 1 (", 0), 0u)
          << half.note;
      Measurement wide = figure(Metric::bandwidth_cycles, 129);
      EXPECT_TRUE(apply_bounds(b, wide));
      Measurement fine = figure(Metric::bandwidth_cycles, 127.9);
      EXPECT_FALSE(apply_bounds(b, fine));
    }
  }
}

namespace {

// A host method whose figures the test sets: the runner must judge them by its bounds.
class Fixed final : public Method {
 public:
  explicit Fixed(double latency)
      : Method({.name = "test.fixed",
                .level = Level::host,
                .description = "figures set by the test"}),
        latency_(latency) {}
  Verification verify(State&) override { return Verification::passed(); }
  std::vector<Measurement> measure(State&) override {
    return {figure(Metric::latency, latency_, "2 threads"), figure(Metric::throughput, -1)};
  }

 private:
  double latency_;
};

std::vector<Record> run_fixed(double latency) {
  RunContext ctx = test::quick_context();
  Fixed method(latency);
  return test::run_one(ctx, method);
}

}  // namespace

TEST(Bounds, TheRunnerAppliesThemToEveryMeasuredRow) {
  const std::vector<Record> ok = run_fixed(250.0);
  ASSERT_EQ(ok.size(), 2u);
  EXPECT_EQ(ok[0].figure.status, Status::ok);
  EXPECT_EQ(ok[0].figure.note, "verified; 2 threads");
  EXPECT_EQ(ok[1].figure.status, Status::ok);  // no bound on throughput here

  const std::vector<Record> bad = run_fixed(-4.0);
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_EQ(bad[0].figure.status, Status::unverified);
  EXPECT_EQ(bad[0].figure.note,
            "outside physical bound: latency -4 at or below 0 (a time is above zero); verified; 2 "
            "threads");
  EXPECT_EQ(bad[1].figure.status, Status::ok);
}
