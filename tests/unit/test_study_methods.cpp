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
    // Every variant's figure times its instruction on sm_90 (the SASS check holds the table).
    EXPECT_EQ(timed_region_note(m->name(), point(*m, {{"variant", v}}), 90), "") << v;
  }
  const Usability odd = m->feasible(ctx, point(*m, {{"repeats", 48}}));
  EXPECT_FALSE(odd.ok);
  EXPECT_NE(odd.reason.find("multiple of 32"), std::string::npos) << odd.reason;
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 0}})).ok);
  // A diverged sync needs two lanes to split; a shuffle of one lane is a group of its own.
  EXPECT_FALSE(m->feasible(ctx, point(*m, {{"variant", 2}, {"group_size", 1}})).ok);
  EXPECT_TRUE(m->feasible(ctx, point(*m, {{"variant", 4}, {"group_size", 1}})).ok);
}
