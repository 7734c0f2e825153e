// The decision that skips central and all-count where GPUs lack native atomics on peer memory
// (PCIe peers), tested with injected attribute values: NVLink hardware always has them.
#include <gtest/gtest.h>

#include "runtime/peer_atomics.hpp"

using gb::mg::peer_atomics_problem;

TEST(PeerAtomics, EveryPairWithNativeAtomicsPasses) {
  EXPECT_EQ(peer_atomics_problem({0, 1, 2, 3}, [](int, int) { return 1; }), "");
  EXPECT_EQ(peer_atomics_problem({5}, [](int, int) { return 0; }), "");  // no pair
}

TEST(PeerAtomics, OneDirectionWithoutIsNamed) {
  const std::string why =
      peer_atomics_problem({0, 2}, [](int from, int to) { return !(from == 2 && to == 0); });
  EXPECT_NE(why.find("GPU 2 has no native atomics on GPU 0's memory"), std::string::npos) << why;
  EXPECT_NE(why.find("cudaDevP2PAttrNativeAtomicSupported"), std::string::npos) << why;
}

TEST(PeerAtomics, AskedOnlyForDistinctGpusOfTheTeam) {
  std::vector<std::pair<int, int>> asked;
  peer_atomics_problem({1, 3}, [&](int from, int to) {
    asked.emplace_back(from, to);
    return 1;
  });
  EXPECT_EQ(asked, (std::vector<std::pair<int, int>>{{1, 3}, {3, 1}}));
}
