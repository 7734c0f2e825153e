// How a method states what it is (MethodInfo, core/method.hpp): a method states its level, a
// frame's policy leaves it to its frame, and the frame's axes come before the policy's own.
#include <gtest/gtest.h>

#include <vector>

#include "core/method.hpp"
#include "errors/errors.hpp"

namespace gb {
namespace {

class Levelled final : public Method {
 public:
  explicit Levelled(MethodInfo info) : Method(std::move(info)) {}
  std::vector<Measurement> measure(State&) override { return {}; }
};

TEST(MethodInfo, AMethodStatesItsLevel) {
  EXPECT_THROW(Levelled({.name = "test.no-level", .description = "no level"}), Error);
  const Levelled host({.name = "test.host", .level = Level::host, .description = "a host one"});
  EXPECT_EQ(host.level(), Level::host);
}

TEST(MethodInfo, AFrameGivesItsPolicyItsLevelAndAxesFirst) {
  const MethodInfo policy{.name = "test.policy",
                          .description = "a policy",
                          .axes = {{"own", {1}}},
                          .timed = {{.instruction = "BAR.SYNC"}}};
  const MethodInfo info = framed(policy, Level::block, {{"threads_per_block", {32}}});
  ASSERT_TRUE(info.level);
  EXPECT_EQ(*info.level, Level::block);
  ASSERT_EQ(info.axes.size(), 2u);
  EXPECT_EQ(info.axes[0].name, "threads_per_block");
  EXPECT_EQ(info.axes[1].name, "own");
  EXPECT_EQ(info.timed.size(), 1u);
  // A policy that states a level of its own is refused: the frame's is the method's.
  MethodInfo levelled = policy;
  levelled.level = Level::grid;
  EXPECT_THROW(framed(levelled, Level::block), Error);
}

}  // namespace
}  // namespace gb
