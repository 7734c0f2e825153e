#include <gtest/gtest.h>

#include "app/context.hpp"
#include "errors/errors.hpp"

using gb::cli::select_gpus;

TEST(GpuSelect, DefaultsToAllVisibleOrRankLocal) {
  gb::Launch single;
  EXPECT_EQ(select_gpus("", 2, "", single), (std::vector<int>{0, 1}));
  EXPECT_TRUE(select_gpus("", 0, "no driver", single).empty());
  gb::Launch rank;
  rank.under_mpi = true;
  rank.local_rank = 3;
  EXPECT_EQ(select_gpus("", 2, "", rank), (std::vector<int>{1}));
}

TEST(GpuSelect, RejectsMissingDuplicateAndMalformed) {
  gb::Launch l;
  EXPECT_EQ(select_gpus("1,0", 2, "", l), (std::vector<int>{1, 0}));
  try {
    select_gpus("0,2", 2, "", l);
    FAIL();
  } catch (const gb::UsageError& e) {
    // A list of counts (1,2,4,8) given for indices is answered with the flag for counts.
    EXPECT_STREQ(e.what(),
                 "--gpus names GPU 2 but 2 are visible (0..1); --gpus takes GPU indices (how "
                 "many GPUs a method spans is --axis gpu_count=N)");
  }
  EXPECT_THROW(select_gpus("0,0", 2, "", l), gb::UsageError);
  EXPECT_THROW(select_gpus("x", 2, "", l), gb::UsageError);
  EXPECT_THROW(select_gpus("-1", 2, "", l), gb::UsageError);
  try {
    select_gpus("0", 0, "cudaErrorNoDevice", l);
    FAIL();
  } catch (const gb::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no GPU is visible (cudaErrorNoDevice)"),
              std::string::npos);
  }
}

TEST(GpuSelect, UnderMpiTheListIsIndexedByLocalRank) {
  gb::Launch rank;
  rank.under_mpi = true;
  rank.local_size = 2;
  rank.local_rank = 1;
  EXPECT_EQ(select_gpus("0,2", 4, "", rank), (std::vector<int>{2}));
  rank.local_size = 3;
  rank.local_rank = 2;
  EXPECT_EQ(select_gpus("3,1,0", 4, "", rank), (std::vector<int>{0}));
  EXPECT_THROW(select_gpus("0,4,1", 4, "", rank), gb::UsageError);
}

// 4 ranks on `--gpus 0,1` used to wrap onto 2 GPUs while the rows said 4.
TEST(GpuSelect, UnderMpiMoreLocalRanksThanListedGpusIsRefused) {
  gb::Launch rank;
  rank.under_mpi = true;
  rank.local_size = 4;
  rank.local_rank = 0;
  try {
    select_gpus("0,1", 4, "", rank);
    FAIL();
  } catch (const gb::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("lists 2 GPUs but 4 ranks run on this node"),
              std::string::npos)
        << e.what();
  }
  rank.local_size = 2;
  EXPECT_EQ(select_gpus("0,1", 4, "", rank), (std::vector<int>{0}));
  // One GPU is the rank's own, as the job scripts pass it (rank.sh: GPUBARRIER_GPUS per rank).
  rank.local_size = 4;
  rank.local_rank = 3;
  EXPECT_EQ(select_gpus("2", 4, "", rank), (std::vector<int>{2}));
}
