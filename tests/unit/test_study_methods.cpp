// Methods that measure the study's (Zhang, Wahib, Zhang, Matsuoka) quantities where no other
// method does: the CPU-side barrier's overhead by Eq. 6 (section 4.2.2) and a warp sync's latency
// over the repeat count (section 9.4). What they accept, without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/run_context.hpp"
#include "core/timed_regions.hpp"

using namespace gb;

namespace {

std::unique_ptr<Method> method_named(std::string_view name) {
  for (auto& m : Registry::instance().create_all())
    if (m->name() == name) return std::move(m);
  return nullptr;
}

bool has_axis(const Method& m, std::string_view axis) {
  for (const Axis& a : m.axes())
    if (a.name == axis) return true;
  return false;
}

Point point(const Method& m, std::vector<std::pair<std::string, long>> set) {
  std::vector<std::pair<std::string, long>> values;
  for (const Axis& a : m.axes()) {
    long v = a.values.front();
    for (const auto& [name, value] : set)
      if (name == a.name) v = value;
    values.emplace_back(a.name, v);
  }
  return Point(values);
}

}  // namespace

TEST(OmpBarrierFusion, IsEq6OverTheCpuSideBarrierStep) {
  const auto m = method_named("kernel.fusion.omp-barrier");
  ASSERT_NE(m, nullptr) << "kernel.fusion.omp-barrier is not registered";
  for (const char* axis : {"gpu_count", "host_wait", "fusion_i", "fusion_j", "unit_ns"})
    EXPECT_TRUE(has_axis(*m, axis)) << axis;
  EXPECT_TRUE(m->requirements().threads_mode);  // one OpenMP thread per GPU
  EXPECT_NE(m->description().find("Eq. 6"), std::string_view::npos);
  RunContext ctx;
  ctx.gpus = {0};
  EXPECT_TRUE(m->feasible(ctx, point(*m, {})).ok);
  // Kernels shorter than Eq. 6 needs (the study's section 9.2) are refused, as for kernel.fusion.
  const Usability short_kernels = m->feasible(ctx, point(*m, {{"unit_ns", 100}}));
  EXPECT_FALSE(short_kernels.ok);
  EXPECT_NE(short_kernels.reason.find("Eq. 6 needs"), std::string::npos) << short_kernels.reason;
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"gpu_count", 2}})).ok);
}

TEST(RepeatCount, ChainsOfWholeLoopTripsOfEveryVariant) {
  const auto m = method_named("gpu.warp.repeat-count");
  ASSERT_NE(m, nullptr) << "gpu.warp.repeat-count is not registered";
  RunContext ctx;
  for (long v = 1; v <= 5; ++v) {
    EXPECT_TRUE(m->feasible(ctx, point(*m, {{"variant", v}, {"repeats", 64}})).ok) << v;
    // Every variant's figure times its instruction on sm_90 (the SASS test checks the claim).
    EXPECT_EQ(timed_region_note(*m, point(*m, {{"variant", v}}), 90), "") << v;
  }
  const Usability odd = m->feasible(ctx, point(*m, {{"repeats", 48}}));
  EXPECT_FALSE(odd.ok);
  EXPECT_NE(odd.reason.find("multiple of 32"), std::string::npos) << odd.reason;
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 0}})).ok);
  // A diverged sync needs two lanes to split; a shuffle of one lane is a group of its own.
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 2}, {"group_size", 1}})).ok);
  EXPECT_TRUE(m->feasible(ctx, point(*m, {{"variant", 4}, {"group_size", 1}})).ok);
}

TEST(RepeatCountUnrolled, WholeChainsOfTheCompiledLengths) {
  const auto m = method_named("gpu.warp.repeat-count-unrolled");
  ASSERT_NE(m, nullptr) << "gpu.warp.repeat-count-unrolled is not registered";
  EXPECT_EQ(m->level(), Level::warp);
  std::vector<long> variants, repeats;
  for (const Axis& a : m->axes()) {
    if (a.name == "variant") variants = a.values;
    if (a.name == "repeats") repeats = a.values;
  }
  // The diverged __syncwarp and the tile shuffle, at lengths on both sides of the instruction
  // cache (the study's section 9.4).
  EXPECT_EQ(variants, (std::vector<long>{1, 4}));
  EXPECT_EQ(repeats, (std::vector<long>{64, 128, 256, 512, 1024, 2048, 8192, 16384}));
  RunContext ctx;
  for (const long r : {64L, 128L, 256L, 512L, 1024L})
    EXPECT_TRUE(m->feasible(ctx, point(*m, {{"variant", 1}, {"repeats", r}})).ok) << r;
  for (const long r : {2048L, 8192L, 16384L})
    EXPECT_TRUE(m->feasible(ctx, point(*m, {{"variant", 4}, {"repeats", r}})).ok) << r;
  // A length not compiled for the variant is refused and the reason lists those that are.
  const Usability other = m->feasible(ctx, point(*m, {{"variant", 1}, {"repeats", 2048}}));
  EXPECT_FALSE(other.ok);
  EXPECT_NE(other.reason.find("no unrolled chain of 2048"), std::string::npos) << other.reason;
  EXPECT_NE(other.reason.find("64, 128, 256, 512, 1024"), std::string::npos) << other.reason;
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 4}, {"repeats", 512}})).ok);
  // Variants without an unrolled chain, and groups other than a whole warp.
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 2}, {"repeats", 512}})).ok);
  const Usability part = m->feasible(ctx, point(*m, {{"group_size", 16}, {"repeats", 512}}));
  EXPECT_FALSE(part.ok);
  EXPECT_NE(part.reason.find("whole warp"), std::string::npos) << part.reason;
  // Both figures time their instruction on sm_90, as the loop's do.
  for (const long v : {1L, 4L})
    EXPECT_EQ(timed_region_note(*m, point(*m, {{"variant", v}}), 90), "") << v;
}

TEST(PartialSync, GridSyncWithPartOfTheGridOnlyInAnIsolatedChild) {
  const auto m = method_named("pitfall.grid.partial-sync");
  ASSERT_NE(m, nullptr) << "pitfall.grid.partial-sync is not registered";
  RunContext ctx;
  ctx.gpus = {0};
  // cg::this_grid().sync() (barrier 2) with a block absent would hang the process: refused
  // outside an isolated child, before any CUDA call.
  for (const long missing : {1L, 2L}) {
    const Usability u = m->feasible(ctx, point(*m, {{"barrier", 2}, {"missing", missing}}));
    EXPECT_FALSE(u.ok) << missing;
    EXPECT_NE(u.reason.find("isolated child"), std::string::npos) << u.reason;
    EXPECT_NE(u.reason.find("--point-timeout"), std::string::npos) << u.reason;
  }
  bool named = false;
  for (const Axis& a : m->axes())
    for (const ValueName& v : a.names) named |= a.name == "barrier" && v.code == 2;
  EXPECT_TRUE(named) << "barrier 2 has a name";
}

TEST(KernelFusion, ShorterKernelsThanEq6NeedsAreRefusedWithTheReason) {
  const auto m = method_named("kernel.fusion");
  ASSERT_NE(m, nullptr);
  RunContext ctx;
  // The verdicts sweep's form: fusion_i 100, fusion_j 10, the shorter kernel 10 x unit_ns.
  for (const long unit : {100L, 200L, 300L}) {
    const Usability u =
        m->feasible(ctx, point(*m, {{"fusion_i", 100}, {"fusion_j", 10}, {"unit_ns", unit}}));
    EXPECT_FALSE(u.ok) << unit;
    EXPECT_NE(u.reason.find(std::to_string(10 * unit) + " ns are shorter than the 5000 ns"),
              std::string::npos)
        << u.reason;
  }
  for (const long unit : {500L, 750L, 1000L, 20000L})
    EXPECT_TRUE(
        m->feasible(ctx, point(*m, {{"fusion_i", 100}, {"fusion_j", 10}, {"unit_ns", unit}})).ok)
        << unit;
}
