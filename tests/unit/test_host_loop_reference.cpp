// The reference tools' loop convention (core/host_loop_reference.hpp) and the note of rows whose
// method has no barrier check.
#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <thread>

#include "core/host_loop_reference.hpp"
#include "core/runner.hpp"
#include "errors/errors.hpp"
#include "quick_context.hpp"

using namespace gb;
using gb::test::quick_context;

namespace {

void spin_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

}  // namespace

TEST(LoopConvention, StatisticNamesTheCombinationAndTheMembers) {
  EXPECT_EQ(osu_convention().statistic(), Statistic::loop_mean_avg_ranks);
  EXPECT_EQ(epcc_convention().statistic(), Statistic::loop_mean_max_threads);
  EXPECT_EQ((LoopConvention{LoopCombine::average, LoopMember::thread}.statistic()),
            Statistic::loop_mean_avg_threads);
}

TEST(LoopConvention, AverageOverMembersAsOsuMaximumAsEpcc) {
  // Per-rank loop means of one loop (ns per step), e.g. rank 1 arrived late on every step.
  const std::vector<double> per_rank{1000, 1200, 1100, 1900};
  EXPECT_DOUBLE_EQ(combine_loop_means(per_rank, LoopCombine::average), 1300);
  EXPECT_DOUBLE_EQ(combine_loop_means(per_rank, LoopCombine::maximum), 1900);
  EXPECT_DOUBLE_EQ(combine_loop_means({42}, LoopCombine::average), 42);
  EXPECT_THROW(combine_loop_means({}, LoopCombine::average), Error);
}

TEST(LoopConvention, LoopsLastAboutAMillisecondWithinBounds) {
  EXPECT_EQ(loop_steps_for(1000), 1000);
  EXPECT_EQ(loop_steps_for(20000), 50);
  EXPECT_EQ(loop_steps_for(1e6), 20);    // at least nccl-tests' 20 iterations
  EXPECT_EQ(loop_steps_for(1), 100000);  // at most 1e5 steps a loop
  EXPECT_EQ(loop_steps_for(0), 100000);
}

TEST(ReferenceLoop, EachSampleCombinesOneLoopOfEveryMember) {
  RunContext ctx = quick_context();
  ReferenceLoop avg(ctx, osu_convention(), 2);
  ReferenceLoop max(ctx, epcc_convention(), 2);
  EXPECT_EQ(avg.steps(), 16);  // the first calibration loop
  // The loop length doubles until loops last about 1 ms by the slowest member; a loop slowed
  // down (preempted) does not shorten it.
  EXPECT_FALSE(avg.calibrate({900, 1000}));
  EXPECT_EQ(avg.steps(), 32);
  EXPECT_FALSE(avg.calibrate({900, 1e6}));
  EXPECT_EQ(avg.steps(), 64);
  int rounds = 2;
  while (!avg.calibrate({900, 1000})) ++rounds;
  EXPECT_EQ(avg.steps(), 1000);
  EXPECT_EQ(rounds, 6);  // 16 32 64 128 256 512 1000
  while (!max.calibrate({900, 1000})) {
  }
  // Injected per-member loop means: member 1 alternates slow and fast.
  for (int i = 0; i < 10; ++i) {
    const std::vector<double> loop{1000, i % 2 ? 3000.0 : 2000.0};
    avg.add(loop);
    max.add(loop);
  }
  const Measurement a = avg.result(), m = max.result();
  EXPECT_EQ(a.metric, Metric::loop_latency);
  EXPECT_EQ(a.unit, "ns");
  EXPECT_EQ(a.technique, Technique::host_loop);
  EXPECT_EQ(a.statistic, Statistic::loop_mean_avg_ranks);
  EXPECT_EQ(a.stats.count, 10u);
  EXPECT_DOUBLE_EQ(a.stats.min, 1500);
  EXPECT_DOUBLE_EQ(a.stats.max, 2000);
  EXPECT_DOUBLE_EQ(a.value, 1750);  // the mean of the samples
  EXPECT_DOUBLE_EQ(a.value, a.stats.mean);
  EXPECT_EQ(a.reps_hi, 1000);
  EXPECT_EQ(m.statistic, Statistic::loop_mean_max_threads);
  EXPECT_DOUBLE_EQ(m.stats.min, 2000);
  EXPECT_DOUBLE_EQ(m.stats.max, 3000);
  EXPECT_DOUBLE_EQ(m.value, 2500);
  EXPECT_EQ(a.note, "per-rank loop means min 1000 ns, max 2500 ns (1000 steps a loop)");
  EXPECT_EQ(a.samples.size(), 10u);
}

TEST(ReferenceLoop, TimesWholeLoopsOfOneMember) {
  RunContext ctx = quick_context();
  int finished = 0;
  const Measurement m = loop_latency(
      ctx, osu_convention(), [] { spin_for(std::chrono::microseconds(20)); }, [&] { ++finished; });
  // At least the step's spin; no upper bound: a loaded machine stretches the loop (speed is not
  // what this test asserts). The combining rule itself is tested on fixed figures above.
  EXPECT_GE(m.value, 20000.0);
  EXPECT_GE(m.stats.count, 10u);
  EXPECT_LE(m.reps_hi, 50);  // 1 ms loops of 20 us steps
  EXPECT_GE(m.reps_hi, 20);
  // After each loop: the warm-up, the calibration loops (at least one) and every sample.
  EXPECT_GE(finished, static_cast<int>(m.stats.count) + 2);
  EXPECT_NE(m.stop, StopReason::none);
}

TEST(ReferenceLoop, ThreadsMeetBetweenLoopsAndAreCombined) {
  // Two members whose steps take 10 and 40 us: the average is about 25 us, the maximum 40.
  RunContext ctx = quick_context();
  for (const LoopConvention& c : {osu_convention(), epcc_convention()}) {
    ReferenceLoop loop(ctx, c, 2);
    std::barrier<> meet(2);
    auto member = [&](int i) {
      loop.run_member(
          i, [i] { spin_for(std::chrono::microseconds(i == 0 ? 10 : 40)); }, {},
          [&] { meet.arrive_and_wait(); });
    };
    std::thread other(member, 1);
    member(0);
    other.join();
    const Measurement m = loop.result();
    const double expected = c.combine == LoopCombine::average ? 25000 : 40000;
    EXPECT_GE(m.value, expected) << name_of(c.statistic());  // no upper bound: see above
    EXPECT_LE(m.reps_hi, 25);  // the slower member sets the loop length
    EXPECT_GE(m.reps_hi, 20);
  }
}

namespace {

class Unchecked final : public Method {
 public:
  Unchecked()
      : Method({.name = "test.unchecked",
                .level = Level::host,
                .description = "a method without a barrier check"}) {}
  Verification verify(State&) override { return Verification::not_verified("nothing to stamp"); }
  std::vector<Measurement> measure(State&) override {
    Measurement a;
    a.metric = Metric::loop_latency;
    a.value = 1;  // a time is positive (Method::bounds)
    a.note = "per-rank loop means";
    Measurement b;
    b.metric = Metric::latency;
    b.value = 1;
    return {a, b};
  }
};

struct Collect final : ResultSink {
  std::vector<Record> records;
  void write(const Record& r) override { records.push_back(r); }
};

}  // namespace

TEST(Runner, RowsOfAMethodWithoutACheckSaySoAndStayOk) {
  RunContext ctx = quick_context();
  Unchecked method;
  Collect sink;
  RunPlan plan;
  plan.methods = {&method};
  plan.run_id = "r";
  run_plan(ctx, plan, {&sink});
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[0].figure.note, "not verified: nothing to stamp; per-rank loop means");
  EXPECT_EQ(sink.records[1].figure.note, "not verified: nothing to stamp");
  for (const Record& r : sink.records) EXPECT_EQ(r.figure.status, Status::ok);
}
