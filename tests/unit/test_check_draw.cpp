// The check's late participant goes round every member and many blocks, and the draws repeat
// from the seed (src/core/check_draw.hpp). Before it, only the last block of the last GPU was
// ever late, so a barrier that forgot any other participant passed. The block, cluster and grid
// checks use the same draws (kernels/common/stamp_check.cuh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <vector>

#include "core/check_draw.hpp"

namespace gb {
namespace {

// The (member, block) late at each of `rounds` barriers.
std::vector<std::pair<int, unsigned>> late_ones(int members, unsigned blocks, unsigned seed,
                                                int rounds) {
  std::vector<std::pair<int, unsigned>> late;
  for (int e = 1; e <= rounds; ++e) {
    int found = 0;
    for (int m = 0; m < members; ++m)
      for (unsigned b = 0; b < blocks; ++b)
        if (check_late(m, members, b, blocks, seed, static_cast<unsigned long long>(e))) {
          late.emplace_back(m, b);
          ++found;
        }
    EXPECT_EQ(found, 1) << "exactly one late participant at barrier " << e;
  }
  return late;
}

TEST(CheckDraw, EveryMemberIsLateInTurn) {
  for (int members : {2, 4, 8}) {
    const auto late = late_ones(members, 132, 1, 64);
    std::vector<int> per_member(members, 0);
    for (const auto& [m, b] : late) ++per_member[m];
    for (int m = 0; m < members; ++m) EXPECT_EQ(per_member[m], 64 / members) << "member " << m;
  }
}

TEST(CheckDraw, LateBlocksSpreadOverTheGrid) {
  const auto late = late_ones(2, 528, 1, 64);
  std::set<unsigned> blocks;
  for (const auto& [m, b] : late) blocks.insert(b);
  EXPECT_GE(blocks.size(), 50u) << "64 draws over 528 blocks should rarely repeat";
  EXPECT_TRUE(blocks.count(527) == 0 || blocks.size() > 1) << "not always the last block";
}

// The block check's late warp goes round the warps (kernels/block/detail/block_barrier.cuh):
// in its 64 rounds every warp of a block of up to 1024 threads is late twice or more.
TEST(CheckDraw, EveryWarpOfABlockIsLateInTurn) {
  for (int warps : {2, 3, 8, 32}) {
    std::vector<int> turns(warps, 0);
    for (const auto& [w, b] : late_ones(warps, 1, 1, 64)) ++turns[w];
    for (int w = 0; w < warps; ++w) EXPECT_GE(turns[w], 2) << warps << " warps, warp " << w;
  }
}

TEST(CheckDraw, SeedFromTheEnvironment) {
  unsetenv("GPUBARRIER_CHECK_SEED");
  EXPECT_EQ(check_seed(), 1u);
  setenv("GPUBARRIER_CHECK_SEED", "7", 1);
  EXPECT_EQ(check_seed(), 7u);
  unsetenv("GPUBARRIER_CHECK_SEED");
}

TEST(CheckDraw, SameSeedSameDrawsOtherSeedOthers) {
  EXPECT_EQ(late_ones(2, 528, 1, 32), late_ones(2, 528, 1, 32));
  EXPECT_NE(late_ones(2, 528, 1, 32), late_ones(2, 528, 2, 32));
}

}  // namespace
}  // namespace gb
