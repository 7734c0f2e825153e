#include <gtest/gtest.h>

#include "core/axis.hpp"
#include "core/errors.hpp"

using namespace gb;

TEST(Axis, ParsesListsAndRanges) {
  EXPECT_EQ(parse_axis("threads_per_block=32,64").values, (std::vector<long>{32, 64}));
  EXPECT_EQ(parse_axis("x=1:9:4").values, (std::vector<long>{1, 5, 9}));
  EXPECT_EQ(parse_axis("gpu_count=1:4").values, (std::vector<long>{1, 2, 3, 4}));
  EXPECT_EQ(parse_axis("blocks_per_sm=1:32:*2").values, (std::vector<long>{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(parse_axis("x=1:32:*2").name, "x");
}

TEST(Axis, RejectsMalformed) {
  for (const char* bad : {"x", "=1", "x=", "x=a", "x=1:2:3:4", "x=2:", "x=5:1:1", "x=1:4:0", "x=1:4:*1",
                          "x=0:4:*2", "x=1.5", "x=1,,b"}) {
    try {
      parse_axis(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--axis"), std::string::npos) << e.what();
    }
  }
}

TEST(Axis, ExpandsCartesianWithOverrides) {
  const std::vector<Axis> axes{{"a", {1, 2}}, {"b", {10, 20, 30}}};
  EXPECT_EQ(expand_points(axes, {}).size(), 6u);
  const auto pts = expand_points(axes, {{"b", {5}}});
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[1].to_string(), "a=2 b=5");
  EXPECT_EQ(pts[0].at("b"), 5);
  EXPECT_EQ(expand_points({}, {}).size(), 1u);  // a method without axes runs once
}
