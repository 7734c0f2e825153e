// What a clock-technique figure times (core/timed_regions.hpp): every clock method has a row of
// the table, and the runner appends the row's answer to the figure's note as a part of its own,
// after "verified" and the method's parts. tests/gpu/test_sass.py (timed_instructions) checks the
// table against the build's SASS.
#include <gtest/gtest.h>

#include <set>
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

// Figures as a clock-technique method gives them, under a name the test picks.
class TimedRegionFake final : public Method {
 public:
  explicit TimedRegionFake(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  Level level() const override { return Level::host; }
  std::string_view description() const override { return "clock figures set by the test"; }
  std::vector<Axis> axes() const override { return {{"group_size", {32}}}; }
  Verification verify(State&) override { return Verification::passed(); }
  std::vector<Measurement> measure(State&) override {
    Measurement clock;
    clock.metric = "latency_cycles";
    clock.technique = Technique::clock;
    clock.value = 1.4;
    clock.note = "SM clock 1980 MHz measured";
    Measurement other = clock;
    other.technique = Technique::host_loop;
    other.note.clear();
    return {clock, other};
  }

 private:
  std::string name_;
};

std::vector<Record> timed_region_rows(const std::string& method, int cc) {
  RunContext ctx = test::quick_context();
  ctx.compute_capability = cc;
  TimedRegionFake fake(method);
  return test::run_one(ctx, fake);
}

Point variant_point(long v) {
  return Point({{"variant", v}});
}

}  // namespace

TEST(TimedRegions, ConvergedWarpSyncsTimeNoWarpsyncOnSm90) {
  for (const char* m : {"gpu.warp.tile-sync", "gpu.warp.coalesced-sync", "gpu.warp.syncwarp"})
    EXPECT_EQ(timed_region_note(m, Point({{"group_size", 32}}), 90), kNoWarpsync) << m;
  EXPECT_EQ(timed_region_note("gpu.warp.reduce", variant_point(2), 90), kNoWarpsync);
  EXPECT_EQ(timed_region_note("gpu.warp.reduce", variant_point(3), 90), kNoWarpsync);
}

TEST(TimedRegions, DivergedSyncsShufflesAndBarriersAreTimed) {
  for (const char* m : {"gpu.warp.tile-sync-diverged", "gpu.warp.coalesced-sync-diverged",
                        "gpu.warp.syncwarp-diverged", "gpu.warp.tile-shuffle",
                        "gpu.block.syncthreads", "gpu.cluster.sync", "model.smem.stream"})
    EXPECT_EQ(timed_region_note(m, Point({{"group_size", 32}}), 90), "") << m;
  for (long v : {0L, 1L, 4L, 5L})
    EXPECT_EQ(timed_region_note("gpu.warp.reduce", variant_point(v), 90), "") << v;
}

TEST(TimedRegions, OtherArchitecturesAndUnknownMethodsAreUnresolved) {
  const std::string other = timed_region_note("gpu.warp.tile-shuffle", Point(), 100);
  EXPECT_EQ(other.rfind("unresolved: ", 0), 0u) << other;
  EXPECT_NE(other.find("sm_100"), std::string::npos) << other;
  const std::string unknown = timed_region_note("gpu.warp.unknown", Point(), 90);
  EXPECT_EQ(unknown.rfind("unresolved: ", 0), 0u) << unknown;
}

// Every registered method that says it uses the clock technique has a row, and every row's
// method is registered.
TEST(TimedRegions, EveryClockMethodHasARow) {
  std::set<std::string> registered;
  for (const auto& m : Registry::instance().create_all()) {
    registered.insert(std::string(m->name()));
    if (m->description().find("clock technique") == std::string_view::npos) continue;
    bool found = false;
    for (const TimedRegion& r : timed_regions()) found = found || r.method == m->name();
    EXPECT_TRUE(found) << m->name() << " has no row in core/timed_regions.cpp";
  }
  for (const TimedRegion& r : timed_regions())
    EXPECT_TRUE(registered.count(std::string(r.method))) << r.method << " is not registered";
}

TEST(TimedRegions, TheRunnerAppendsThePartAfterTheVerification) {
  const std::vector<Record> rows = timed_region_rows("gpu.warp.tile-sync", 90);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].figure.note,
            std::string("verified; SM clock 1980 MHz measured; ") + kNoWarpsync);
  EXPECT_EQ(rows[0].figure.status, Status::ok);
  EXPECT_EQ(rows[1].figure.note, "verified");  // not a clock figure: no part
  const std::vector<Record> shuffle = timed_region_rows("gpu.warp.tile-shuffle", 90);
  ASSERT_EQ(shuffle.size(), 2u);
  EXPECT_EQ(shuffle[0].figure.note, "verified; SM clock 1980 MHz measured");
}
