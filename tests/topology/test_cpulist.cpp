#include <gtest/gtest.h>

#include "topology/cpulist.hpp"
#include "topology/path_type.hpp"

namespace gb::topo {
namespace {

TEST(Cpulist, ParsesRangesAndLists) {
  EXPECT_EQ(parse_cpulist("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpulist("1-1"), (std::vector<int>{1}));
  EXPECT_EQ(parse_cpulist("5,1-2,2"), (std::vector<int>{1, 2, 5}));
  EXPECT_EQ(parse_cpulist("N/A"), std::vector<int>{});
  EXPECT_EQ(parse_cpulist(""), std::vector<int>{});
}

TEST(Cpulist, RejectsWhatIsNoList) {
  for (const char* bad : {"3-1", "a", "1,", ",1", "1--2", "-1", "0-4000000000", "1-2-3", "0x3"})
    EXPECT_FALSE(parse_cpulist(bad)) << bad;
}

TEST(Cpulist, FormatsShortest) {
  EXPECT_EQ(format_cpulist({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(format_cpulist({}), "");
  EXPECT_EQ(format_cpulist(*parse_cpulist("0-11,24-35")), "0-11,24-35");
}

TEST(PathType, ReadsCellsAndGluedCells) {
  EXPECT_EQ(parse_cell("NV18")->nvlink, 18);
  EXPECT_EQ(parse_cell("SOC")->path, PathType::SYS);
  EXPECT_EQ(parse_cell("N/A")->path, PathType::Unknown);
  EXPECT_FALSE(parse_cell("NV0"));
  EXPECT_FALSE(parse_cell("NV"));
  EXPECT_FALSE(parse_cell("NVx"));
  EXPECT_EQ(glued_cell_length("NV12SYS"), 4u);
  EXPECT_EQ(glued_cell_length("SYS48-95"), 3u);
  EXPECT_EQ(glued_cell_length("NV1848-63"), 0u);
  EXPECT_EQ(glued_cell_length("Xylophone"), 0u);
}

}  // namespace
}  // namespace gb::topo
