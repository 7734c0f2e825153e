// NVLink groups, subsets, class strings and binding advice on small synthetic machines.
#include <gtest/gtest.h>

#include "errors/errors.hpp"
#include "helpers.hpp"
#include "topology/binding_advice.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/subsets.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo::test {
namespace {

struct Edge {
  int a, b, nvlink;
};

Topology machine(int n, const std::vector<Edge>& edges, PathType other = PathType::SYS) {
  Topology topo;
  topo.links.assign(n, std::vector<Link>(n));
  for (int g = 0; g < n; ++g) {
    Gpu gpu;
    gpu.index = g;
    topo.gpus.push_back(gpu);
    for (int p = 0; p < n; ++p) {
      topo.links[g][p].path = g == p ? PathType::X : other;
      topo.links[g][p].printed = std::string(to_string(topo.links[g][p].path));
    }
  }
  for (const Edge& e : edges) {
    for (auto [a, b] : {std::pair{e.a, e.b}, {e.b, e.a}}) {
      topo.links[a][b].nvlink = e.nvlink;
      topo.links[a][b].path = PathType::NV;
      topo.links[a][b].printed = "NV" + std::to_string(e.nvlink);
    }
  }
  return topo;
}

std::vector<Edge> clique(std::vector<int> gpus, int nvlink) {
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    for (std::size_t j = i + 1; j < gpus.size(); ++j) edges.push_back({gpus[i], gpus[j], nvlink});
  return edges;
}

TEST(NvlinkGroups, EmptyAndSingle) {
  EXPECT_TRUE(nvlink_groups(machine(0, {})).empty());
  EXPECT_EQ(nvlink_groups(machine(1, {})), (Sets{{0}}));
  EXPECT_EQ(topology_class(machine(0, {})), "none");
  EXPECT_EQ(topology_class(machine(1, {})), "single");
}

TEST(NvlinkGroups, TriangleAndTail) {
  // 0-1-2 triangle, 2-3 and 3-4 links: the triangle first, then {3,4}.
  auto edges = clique({0, 1, 2}, 2);
  edges.push_back({2, 3, 1});
  edges.push_back({3, 4, 1});
  const Topology topo = machine(5, edges);
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2}, {3, 4}}));
  EXPECT_EQ(nvlink_components(topo), (Sets{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(topology_class(topo), "nv1nv2-mesh5");
}

TEST(NvlinkGroups, LowestIndicesWinTies) {
  // A ring 0-1-2-3-0: every edge is a largest clique; {0,1} then {2,3}.
  const Topology topo = machine(4, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}});
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1}, {2, 3}}));
  // A larger clique with higher indices beats a smaller one with lower indices.
  auto edges = clique({2, 3, 4}, 1);
  edges.push_back({0, 1, 1});
  EXPECT_EQ(nvlink_groups(machine(5, edges)), (Sets{{0, 1}, {2, 3, 4}}));
}

TEST(NvlinkGroups, DenseGraphIsFast) {
  // Every pair but (i, i+32) linked: the largest clique has 32 GPUs and there are 2^32 of them.
  std::vector<Edge> edges;
  for (int a = 0; a < 64; ++a)
    for (int b = a + 1; b < 64; ++b)
      if (b != a + 32) edges.push_back({a, b, 1});
  const auto groups = nvlink_groups(machine(64, edges));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].size(), 32u);
  EXPECT_EQ(groups[0].front(), 0);
  EXPECT_EQ(groups[0].back(), 31);
}

TEST(Subsets, BestAndWorstOfACubeMesh) {
  auto edges = clique({0, 1, 2, 3}, 1);
  for (auto e : clique({4, 5, 6, 7}, 1)) edges.push_back(e);
  for (int g = 0; g < 4; ++g) edges.push_back({g, g + 4, 1});
  const Topology topo = machine(8, edges);
  const SubsetChoice four = connected_subsets(topo, 4);
  EXPECT_EQ(four.best, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(four.worst, (std::vector<int>{0, 1, 6, 7}));
  const SubsetChoice two = connected_subsets(topo, 2);
  EXPECT_EQ(two.best, (std::vector<int>{0, 1}));
  EXPECT_EQ(two.worst, (std::vector<int>{0, 5}));
  EXPECT_EQ(connected_subsets(topo).size(), 8u);
  EXPECT_THROW(connected_subsets(topo, 9), UsageError);
  EXPECT_EQ(topology_class(topo), "nv1-cubemesh8");
  EXPECT_EQ(topology_class(topo, four.best), "nv1-clique4");
  EXPECT_EQ(topology_class(topo, {0, 5}), "pcie-sys2");
  EXPECT_THROW(topology_class(topo, {0, 8}), UsageError);
  EXPECT_THROW(topology_class(topo, {1, 1}), UsageError);
}

TEST(Subsets, PciePathBreaksTies) {
  Topology topo = machine(4, {}, PathType::SYS);
  for (auto [a, b] : {std::pair{2, 3}, {3, 2}}) topo.links[a][b].path = PathType::PIX;
  EXPECT_EQ(connected_subsets(topo, 2).best, (std::vector<int>{2, 3}));
  EXPECT_EQ(connected_subsets(topo, 2).worst, (std::vector<int>{0, 1}));
}

TEST(Subsets, GreedyBeyondExhaustiveSearch) {
  auto edges = clique({40, 41, 42, 43, 44, 45, 46, 47, 48, 49}, 4);
  const Topology topo = machine(60, edges);
  const SubsetChoice ten = connected_subsets(topo, 10);
  EXPECT_EQ(ten.best, (std::vector<int>{40, 41, 42, 43, 44, 45, 46, 47, 48, 49}));
  EXPECT_EQ(ten.worst.size(), 10u);
  EXPECT_EQ(ten.worst.front(), 0);
}

TEST(BindingAdvice, RegularNumaLayout) {
  Topology topo = machine(4, clique({0, 1, 2, 3}, 18));
  for (int g = 0; g < 4; ++g) {
    topo.gpus[g].cpus = g < 2 ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{4, 5, 6, 7};
    topo.gpus[g].numa_nodes = {g / 2};
  }
  const BindingAdvice advice = binding_advice(topo);
  EXPECT_EQ(advice.srun, "--cpu-bind=mask_cpu:0xf,0xf,0xf0,0xf0");
  EXPECT_EQ(advice.mpirun, "--map-by ppr:2:numa --bind-to numa");
  EXPECT_EQ(advice.gpus[3].numactl, "numactl --physcpubind=4-7 --membind=1");
  EXPECT_TRUE(advice.note.empty());
}

TEST(BindingAdvice, IrregularAndUnknown) {
  Topology topo = machine(2, {});
  EXPECT_TRUE(binding_advice(topo).srun.empty());
  EXPECT_FALSE(binding_advice(topo).note.empty());
  topo.gpus[0].cpus = {8};
  topo.gpus[0].numa_nodes = {3};
  topo.gpus[1].cpus = {0};
  topo.gpus[1].numa_nodes = {1};
  const BindingAdvice advice = binding_advice(topo);
  EXPECT_EQ(advice.srun, "--cpu-bind=mask_cpu:0x100,0x1");
  EXPECT_EQ(advice.mpirun, "--bind-to none");
  EXPECT_FALSE(advice.note.empty());
  EXPECT_EQ(cpu_mask({}), "0x0");
}

}  // namespace
}  // namespace gb::topo::test
