// Which ranks share a node (runtime/node_layout.hpp) and the test-only simulated grouping
// (GPUBARRIER_TEST_RANKS_AS_NODES, core/faults.hpp): the grouping multinode.hierarchical and the
// team build on.
#include <gtest/gtest.h>

#include "core/faults.hpp"
#include "runtime/node_layout.hpp"

namespace gb {
namespace {

TEST(NodeLayout, TwoNodesOfFourRanksInRankOrder) {
  const NodeLayout l = layout_nodes({"a", "a", "a", "a", "b", "b", "b", "b"});
  EXPECT_EQ(l.nodes(), 2);
  EXPECT_EQ(l.node, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(l.local, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(l.node_size, (std::vector<int>{4, 4}));
  EXPECT_EQ(l.leaders, (std::vector<int>{0, 4}));
}

TEST(NodeLayout, RanksPlacedRoundRobinStillGroupByNode) {
  // srun --distribution=cyclic: ranks alternate between the nodes. The leader of each node is
  // its lowest rank, nodes are numbered by their leader.
  const NodeLayout l = layout_nodes({"b", "a", "b", "a", "b"});
  EXPECT_EQ(l.node, (std::vector<int>{0, 1, 0, 1, 0}));
  EXPECT_EQ(l.local, (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(l.node_size, (std::vector<int>{3, 2}));
  EXPECT_EQ(l.leaders, (std::vector<int>{0, 1}));
}

TEST(NodeLayout, UnevenNodes) {
  const NodeLayout l = layout_nodes({"x", "y", "y", "y"});
  EXPECT_EQ(l.node_size, (std::vector<int>{1, 3}));
  EXPECT_EQ(l.leaders, (std::vector<int>{0, 1}));
  EXPECT_EQ(l.local, (std::vector<int>{0, 0, 1, 2}));
}

TEST(NodeLayout, SingleNodeAndEmpty) {
  const NodeLayout one = single_node(3);
  EXPECT_EQ(one.nodes(), 1);
  EXPECT_EQ(one.local, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(one.leaders, std::vector<int>{0});
  EXPECT_TRUE(layout_nodes({}).empty());
  EXPECT_EQ(layout_nodes({}).nodes(), 0);
}

TEST(NodeLayout, KeysJoinNameAndSharedMemoryDomain) {
  // Two slurmd on one host (the local test cluster): one shared-memory domain, two node names,
  // so two nodes. One name on two hosts (domains 0 and 2): also two nodes.
  EXPECT_EQ(layout_nodes({node_key("gb-node1", 0), node_key("gb-node2", 0)}).nodes(), 2);
  EXPECT_EQ(layout_nodes({node_key("h", 0), node_key("h", 0), node_key("h", 2)}).nodes(), 2);
  EXPECT_EQ(layout_nodes({node_key("h", 0), node_key("h", 0)}).nodes(), 1);
}

TEST(NodeLayout, SimulatedNodeNamesGroupRanks) {
  // GPUBARRIER_TEST_RANKS_AS_NODES=2 on one host: the session names rank r's node
  // "<host>-node<r/2>" (the domain is the same for all), so 4 ranks make 2 nodes of 2.
  std::vector<std::string> keys;
  for (int r = 0; r < 4; ++r) keys.push_back(node_key("h-node" + std::to_string(r / 2), 0));
  const NodeLayout l = layout_nodes(keys);
  EXPECT_EQ(l.node, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(l.local, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(l.leaders, (std::vector<int>{0, 2}));
}

TEST(TestRankNodes, ParsesARankCountPerNode) {
  EXPECT_EQ(faults::parse_ranks_per_node(nullptr), 0);
  EXPECT_EQ(faults::parse_ranks_per_node("0"), 0);
  EXPECT_EQ(faults::parse_ranks_per_node("1"), 1);
  EXPECT_EQ(faults::parse_ranks_per_node("2"), 2);
  EXPECT_FALSE(faults::parse_ranks_per_node(""));
  EXPECT_FALSE(faults::parse_ranks_per_node("yes"));
  EXPECT_FALSE(faults::parse_ranks_per_node("-1"));
  EXPECT_FALSE(faults::parse_ranks_per_node("2x"));
}

}  // namespace
}  // namespace gb
