// The hierarchical barrier's grouping for any N and any NVLink grouping.
#include <gtest/gtest.h>

#include "runtime/hierarchy.hpp"

namespace gb::mg {
namespace {

TEST(MultigpuHierarchy, Dgx1TwoQuadsGatherAtTheirLowestMember) {
  const std::vector<int> groups =
      member_groups({0, 1, 2, 3, 4, 5, 6, 7}, {{0, 1, 2, 3}, {4, 5, 6, 7}});
  const Hierarchy h = hierarchy_of(groups, 6);
  EXPECT_EQ(h.leader, 4);
  EXPECT_EQ(h.group, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(h.leaders, (std::vector<int>{0, 4}));
}

TEST(MultigpuHierarchy, MembersFollowTheirGpusNotTheirIndices) {
  // Members 0..3 drive GPUs 6, 1, 7, 0: GPUs 0,1 and 6,7 share NVLink.
  const std::vector<int> groups = member_groups({6, 1, 7, 0}, {{0, 1}, {6, 7}});
  EXPECT_EQ(hierarchy_of(groups, 2).group, (std::vector<int>{0, 2}));
  EXPECT_EQ(hierarchy_of(groups, 3).leader, 1);
  EXPECT_EQ(hierarchy_of(groups, 0).leaders, (std::vector<int>{0, 1}));
}

TEST(MultigpuHierarchy, WithoutNvlinkEveryGpuIsItsOwnGroup) {
  const std::vector<int> groups = member_groups({0, 1, 2}, {});
  for (int m = 0; m < 3; ++m) {
    const Hierarchy h = hierarchy_of(groups, m);
    EXPECT_EQ(h.leader, m);
    EXPECT_EQ(h.group, std::vector<int>{m});
    EXPECT_EQ(h.leaders, (std::vector<int>{0, 1, 2}));
  }
}

TEST(MultigpuHierarchy, UnknownGpusStandAlone) {
  const std::vector<int> groups = member_groups({0, -1, 1, -1}, {{0, 1}});
  EXPECT_EQ(hierarchy_of(groups, 2).group, (std::vector<int>{0, 2}));
  EXPECT_EQ(hierarchy_of(groups, 1).group, std::vector<int>{1});
  EXPECT_EQ(hierarchy_of(groups, 3).group, std::vector<int>{3});
  EXPECT_EQ(hierarchy_of(groups, 3).leaders, (std::vector<int>{0, 1, 3}));
}

TEST(MultigpuHierarchy, OneGpuIsOneGroupOfOne) {
  const Hierarchy h = hierarchy_of(member_groups({0}, {{0}}), 0);
  EXPECT_EQ(h.leader, 0);
  EXPECT_EQ(h.group, std::vector<int>{0});
  EXPECT_EQ(h.leaders, std::vector<int>{0});
}

}  // namespace
}  // namespace gb::mg
