#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/axis.hpp"
#include "errors/errors.hpp"

using namespace gb;

TEST(Axis, ParsesListsAndRanges) {
  using V = std::vector<std::string>;
  EXPECT_EQ(parse_axis("threads_per_block=32,64").values, (V{"32", "64"}));
  EXPECT_EQ(parse_axis("x=1:9:4").values, (V{"1", "5", "9"}));
  EXPECT_EQ(parse_axis("gpu_count=1:4").values, (V{"1", "2", "3", "4"}));
  EXPECT_EQ(parse_axis("blocks_per_sm=1:32:*2").values, (V{"1", "2", "4", "8", "16", "32"}));
  EXPECT_EQ(parse_axis("x=007").values, (V{"7"}));
  EXPECT_EQ(parse_axis("x=1:32:*2").name, "x");
}

TEST(Axis, RejectsMalformed) {
  for (const char* bad : {"x", "=1", "x=", "x=A", "x=a_b", "x=-a", "x=a:b", "x=1:2:3:4", "x=2:", "x=5:1:1", "x=1:4:0", "x=1:4:*1",
                          "x=0:4:*2", "x=1.5", "x=1,,B"}) {
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
  const auto pts = expand_points(axes, {{"b", {"5"}}});
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[1].to_string(), "a=2 b=5");
  EXPECT_EQ(pts[0].at("b"), 5);
  EXPECT_EQ(expand_points({}, {}).size(), 1u);  // a method without axes runs once
}

// A categorical axis: names and integers alike, each resolved to the method's code; the point
// keeps the name, and its text (the CSV's config) shows it.
const Axis kOrdering{
    "ordering", {0, 1}, {{0, "release-acquire", "one"}, {1, "seq-cst-fence", "two"}}};

TEST(Axis, ParsesValueNames) {
  const auto o = parse_axis("ordering=release-acquire,1,seq-cst-fence");
  EXPECT_EQ(o.values, (std::vector<std::string>{"release-acquire", "1", "seq-cst-fence"}));
  EXPECT_TRUE(value_name_form("acq-rel-fence"));
  EXPECT_TRUE(value_name_form("p2"));
  EXPECT_FALSE(value_name_form("2p"));
  EXPECT_FALSE(value_name_form("Cold"));
  EXPECT_FALSE(value_name_form(""));
}

TEST(Axis, ResolvesNamesPerMethod) {
  EXPECT_EQ(resolve_value(kOrdering, "seq-cst-fence"), 1);
  EXPECT_EQ(resolve_value(kOrdering, "0"), 0);
  EXPECT_EQ(resolve_value({"threads_per_block", {32}}, "7"), 7);  // a numeric axis: any integer
  try {
    resolve_value(kOrdering, "relaxed", "multigpu.device.push");
    ADD_FAILURE() << "accepted an unknown name";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    for (const char* part : {"ordering=relaxed", "multigpu.device.push", "release-acquire",
                             "seq-cst-fence"})
      EXPECT_NE(what.find(part), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_THROW(resolve_value({"threads_per_block", {32}}, "warm"), UsageError);
  EXPECT_THROW(check_value_names(parse_axis("ordering=0,2"), kOrdering, "m"), UsageError);
  EXPECT_THROW(check_value_names(parse_axis("ordering=0,nope"), kOrdering, "m"), UsageError);
  EXPECT_NO_THROW(check_value_names(parse_axis("ordering=0,seq-cst-fence"), kOrdering, "m"));
}

TEST(Axis, PointsCarryNames) {
  const std::vector<Axis> axes{{"blocks_per_sm", {1}}, kOrdering};
  const auto defaults = expand_points(axes, {});
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_EQ(defaults[0].to_string(), "blocks_per_sm=1 ordering=release-acquire");
  const auto pts = expand_points(axes, {parse_axis("ordering=seq-cst-fence,0,1")});
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[0].at("ordering"), 1);
  EXPECT_EQ(pts[0].name_of("ordering"), "seq-cst-fence");
  EXPECT_EQ(pts[1].to_string(), "blocks_per_sm=1 ordering=release-acquire");
  EXPECT_EQ(pts[2].to_string(), "blocks_per_sm=1 ordering=seq-cst-fence");  // a code, named
  EXPECT_THROW(expand_points(axes, {parse_axis("ordering=relaxed")}), UsageError);
  EXPECT_THROW(expand_points(axes, {parse_axis("ordering=5")}), UsageError);
}

// A categorical value is checked once, where the command line or the sweep file is read: an
// integer that no method names for the axis is refused there, naming the axis' names, so that a
// method reads only codes it names (Point::choice) and checks no range of its own.
TEST(Axis, CategoricalIntegersAreNamedCodes) {
  try {
    resolve_value(kOrdering, "7", "multigpu.device.push");
    ADD_FAILURE() << "accepted a code the axis does not name";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    for (const char* part :
         {"ordering=7", "multigpu.device.push", "release-acquire, seq-cst-fence", "codes 0, 1"})
      EXPECT_NE(what.find(part), std::string::npos) << what;
  }
  EXPECT_THROW(resolve_value(kOrdering, "-1"), UsageError);
  // Against every registered method: push's part has codes 0..3 only, slots' scan 0 and 1.
  EXPECT_NO_THROW(check_axis_values(parse_axis("part=0,3")));
  for (const char* text : {"part=4", "scan=2", "ordering=9", "fault=-1"}) {
    try {
      check_axis_values(parse_axis(text));
      ADD_FAILURE() << text << " was accepted";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(text), std::string::npos) << what;
      EXPECT_NE(what.find("the names:"), std::string::npos) << what;
    }
  }
  const Point p({{"ordering", 1}});
  enum class Ordering { release_acquire = 0, seq_cst_fence = 1 };
  EXPECT_EQ(p.choice<Ordering>("ordering"), Ordering::seq_cst_fence);
  EXPECT_EQ(p.choice("missing", Ordering::release_acquire), Ordering::release_acquire);
}

TEST(Axis, RangeChecksIntegersOnly) {
  EXPECT_THROW(check_axis_values(parse_axis("threads_per_block=2048")), UsageError);
  EXPECT_NO_THROW(check_axis_values(parse_axis("ordering=seq-cst-fence")));
  // A name is checked against the glossary before any method: a numeric axis has none.
  EXPECT_THROW(check_axis_values(parse_axis("group_size=two")), UsageError);
  EXPECT_THROW(check_axis_values(parse_axis("ordering=release-aquire")), UsageError);
}

TEST(Axis, NamedConfigRewritesOldIntegerConfigs) {
  const std::vector<Axis> axes = {
      {"ordering", {0}, {{0, "release-acquire", "one"}, {1, "seq-cst-fence", "two"}}},
      {"gpu_count", {2}}};
  // An integer of a named axis becomes its name; numeric axes, names and unknown axes stay.
  EXPECT_EQ(named_config("gpu_count=2 ordering=1", axes), "gpu_count=2 ordering=seq-cst-fence");
  EXPECT_EQ(named_config("ordering=release-acquire", axes), "ordering=release-acquire");
  EXPECT_EQ(named_config("ordering=7 other=1", axes), "ordering=7 other=1");
  EXPECT_EQ(named_config("", axes), "");
}
