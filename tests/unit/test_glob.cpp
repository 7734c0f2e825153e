#include <gtest/gtest.h>

#include "core/glob.hpp"
#include "errors/errors.hpp"

using namespace gb;

TEST(Glob, Matches) {
  EXPECT_TRUE(glob_match("gpu.*", "gpu.grid.cg"));
  EXPECT_TRUE(glob_match("*", "host.mpi.barrier"));
  EXPECT_TRUE(glob_match("gpu.?lock.*", "gpu.block.syncthreads"));
  EXPECT_TRUE(glob_match("*.barrier", "host.omp.barrier"));
  EXPECT_FALSE(glob_match("gpu.*", "host.omp.barrier"));
  EXPECT_FALSE(glob_match("gpu.grid", "gpu.grid.cg"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXbY"));
}

TEST(Glob, SplitList) {
  EXPECT_EQ(split_list("a, b,,c "), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(split_list("").empty());
}

TEST(Glob, SelectKeepsCandidateOrderAndDeduplicates) {
  const std::vector<std::string> names{"gpu.block.syncthreads", "gpu.grid.cg", "host.omp.barrier"};
  EXPECT_EQ(select_names("host.*,gpu.*,gpu.grid.cg", names), names);
}

TEST(Glob, UnknownGlobListsCloseNames) {
  const std::vector<std::string> names{"gpu.block.syncthreads", "gpu.grid.cg", "host.omp.barrier"};
  try {
    select_names("gpu.grid.gc", names);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean: gpu.grid.cg"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(select_names(",", names), UsageError);
}
