// What a clock-technique figure times (MethodInfo::timed, core/timed_instruction.hpp): every clock
// method states the instruction its timed region must hold, and the runner appends the answer to
// the figure's note as a part of its own, after "verified" and the method's parts
// (core/timed_regions.hpp). tests/gpu/test_sass.py checks what the methods state against the
// build's SASS.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/runner.hpp"
#include "core/state.hpp"
#include "core/timed_regions.hpp"
#include "quick_context.hpp"

using namespace gb;

namespace {

const char* const kNoWarpsync = "not timed: compiled to no WARPSYNC on sm_90";

std::unique_ptr<Method> method_named(std::string_view name) {
  for (auto& m : Registry::instance().create_all())
    if (m->name() == name) return std::move(m);
  return nullptr;
}

std::string note_of(std::string_view method, const Point& point, int cc) {
  const auto m = method_named(method);
  if (!m) return "(" + std::string(method) + " is not registered)";
  return timed_region_note(*m, point, cc);
}

// Clock figures as a clock-technique method gives them, with the timed instructions the test
// gives it.
class TimedRegionFake final : public Method {
 public:
  explicit TimedRegionFake(std::vector<TimedInstruction> timed)
      : Method({.name = "test.timed-region",
                .level = Level::host,
                .description = "clock figures set by the test",
                .axes = {{"group_size", {32}}},
                .timed = std::move(timed)}) {}
  Verification verify(State&) override { return Verification::passed(); }
  std::vector<Measurement> measure(State&) override {
    Measurement clock;
    clock.metric = Metric::latency_cycles;
    clock.technique = Technique::clock;
    clock.value = 1.4;
    clock.note = "SM clock 1980 MHz measured";
    Measurement other = clock;
    other.technique = Technique::host_loop;
    other.note.clear();
    return {clock, other};
  }
};

std::vector<Record> timed_region_rows(std::vector<TimedInstruction> timed, int cc) {
  RunContext ctx = test::quick_context();
  ctx.compute_capability = cc;
  TimedRegionFake fake(std::move(timed));
  return test::run_one(ctx, fake);
}

Point variant_point(long v) {
  return Point({{"variant", v}});
}

}  // namespace

TEST(TimedRegions, ConvergedWarpSyncsTimeNoWarpsyncOnSm90) {
  for (const char* m : {"gpu.warp.tile-sync", "gpu.warp.coalesced-sync", "gpu.warp.syncwarp"})
    EXPECT_EQ(note_of(m, Point({{"group_size", 32}}), 90), kNoWarpsync) << m;
  EXPECT_EQ(note_of("gpu.warp.reduce", variant_point(2), 90), kNoWarpsync);
  EXPECT_EQ(note_of("gpu.warp.reduce", variant_point(3), 90), kNoWarpsync);
}

TEST(TimedRegions, DivergedSyncsShufflesAndBarriersAreTimed) {
  for (const char* m : {"gpu.warp.tile-sync-diverged", "gpu.warp.coalesced-sync-diverged",
                        "gpu.warp.syncwarp-diverged", "gpu.warp.tile-shuffle",
                        "gpu.block.syncthreads", "gpu.cluster.sync", "model.smem.stream"})
    EXPECT_EQ(note_of(m, Point({{"group_size", 32}}), 90), "") << m;
  for (long v : {0L, 1L, 4L, 5L})
    EXPECT_EQ(note_of("gpu.warp.reduce", variant_point(v), 90), "") << v;
}

TEST(TimedRegions, OtherArchitecturesAndMethodsWithoutAnInstructionAreUnresolved) {
  const std::string other = note_of("gpu.warp.tile-shuffle", Point(), 100);
  EXPECT_EQ(other.rfind("unresolved: ", 0), 0u) << other;
  EXPECT_NE(other.find("sm_100"), std::string::npos) << other;
  const std::string none = note_of("gpu.grid.cg", Point(), 90);
  EXPECT_EQ(none.rfind("unresolved: ", 0), 0u) << none;
}

// Every registered method that says it uses the clock technique states the instruction its
// figures time, for every value of the axis it names them by: a clock method without one has
// figures that nothing checks.
TEST(TimedRegions, EveryClockMethodStatesItsTimedInstruction) {
  for (const auto& m : Registry::instance().create_all()) {
    const bool clock = m->description().find("clock technique") != std::string_view::npos;
    if (!clock) {
      EXPECT_TRUE(m->info().timed.empty()) << m->name() << ": a timed instruction, no clock figure";
      continue;
    }
    ASSERT_FALSE(m->info().timed.empty())
        << m->name() << " uses the clock technique and states no timed instruction (.timed)";
    for (const TimedInstruction& t : m->info().timed) {
      EXPECT_FALSE(t.instruction.empty()) << m->name();
      if (t.axis.empty()) continue;
      bool named = false;
      for (const Axis& a : m->axes()) named = named || a.name == t.axis;
      EXPECT_TRUE(named) << m->name() << ": its timed instruction's axis " << t.axis
                         << " is none of its axes";
    }
    // Every default point of the axis that selects the instruction has one.
    for (const Axis& a : m->axes())
      if (a.name == m->info().timed.front().axis)
        for (long v : a.values)
          EXPECT_NE(m->timed_at(Point({{a.name, v}})), nullptr)
              << m->name() << " " << a.name << "=" << v << " has no timed instruction";
  }
}

TEST(TimedRegions, TheRunnerAppendsThePartAfterTheVerification) {
  const std::vector<Record> rows =
      timed_region_rows({{.instruction = "WARPSYNC", .sm90 = TimedPath::absent}}, 90);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].figure.note,
            std::string("verified; SM clock 1980 MHz measured; ") + kNoWarpsync);
  EXPECT_EQ(rows[0].figure.status, Status::ok);
  EXPECT_EQ(rows[1].figure.note, "verified");  // not a clock figure: no part
  const std::vector<Record> shuffle = timed_region_rows({{.instruction = "SHFL"}}, 90);
  ASSERT_EQ(shuffle.size(), 2u);
  EXPECT_EQ(shuffle[0].figure.note, "verified; SM clock 1980 MHz measured");
}
