// The topology module's reading of structural wiring: PCIe positions, the path between two of
// them, and the Topology built from a small hand-made node.
#include <gtest/gtest.h>

#include "errors/errors.hpp"
#include "helpers.hpp"
#include "topology/from_wiring.hpp"
#include "topology/nvlink_groups.hpp"

namespace gb::topo {
namespace {

PciePosition at(const char* text) {
  return parse_pcie_position(text).value();
}

TEST(PciePosition, ParsesNumaHostBridgeAndSwitches) {
  const PciePosition p = at("1/rc4/sw4/leaf");
  EXPECT_EQ(p.numa, 1);
  EXPECT_EQ(p.host_bridge, "rc4");
  EXPECT_EQ(p.switches, (std::vector<std::string>{"sw4", "leaf"}));
  EXPECT_EQ(to_string(p), "1/rc4/sw4/leaf");
  EXPECT_TRUE(at("0/hb0").switches.empty());
  for (const char* bad : {"", "0", "x/hb0", "-1/hb0", "0//sw", "0/hb0/", "0 /hb0"})
    EXPECT_FALSE(parse_pcie_position(bad).has_value()) << bad;
}

TEST(PciePosition, PathTypesFollowTheTree) {
  EXPECT_EQ(pcie_path(at("0/hb/sw"), at("0/hb/sw")), PathType::PIX);
  EXPECT_EQ(pcie_path(at("0/hb/sw/a"), at("0/hb/sw/b")), PathType::PXB);
  EXPECT_EQ(pcie_path(at("0/hb/sw"), at("0/hb/sw/b")), PathType::PXB);
  EXPECT_EQ(pcie_path(at("0/hb/sw0"), at("0/hb/sw1")), PathType::PHB);
  EXPECT_EQ(pcie_path(at("0/hb"), at("0/hb")), PathType::PHB);
  EXPECT_EQ(pcie_path(at("0/hb0/sw"), at("0/hb1/sw")), PathType::NODE);
  EXPECT_EQ(pcie_path(at("0/hb/sw"), at("1/hb/sw")), PathType::SYS);
}

SystemWiring two_islands() {
  SystemWiring w;
  w.gpu_model = "test GPU";
  w.gpus = {at("0/hb0/sw0"), at("0/hb0/sw0"), at("1/hb1/sw1"), at("1/hb1/sw1")};
  w.nvlink = {{0, 1, 4}, {2, 3, 4}};
  w.numa_nodes = {{0, {0, 1, 2, 3}}, {1, {4, 5, 6, 7}}};
  w.nics = {{"mlx5_0", at("0/hb0/sw0")}, {"mlx5_1", at("1/hb1/sw1")}};
  return w;
}

TEST(FromWiring, BuildsLinksCpusAndNics) {
  const Topology topo = topology_from_wiring(two_islands(), "islands");
  ASSERT_EQ(topo.gpu_count(), 4);
  EXPECT_EQ(topo.source, "islands");
  EXPECT_EQ(topo.nvswitch, false);
  EXPECT_EQ(topo.links[0][1].printed, "NV4");
  EXPECT_EQ(topo.links[0][1].path, PathType::PIX);  // the PCIe path stays known under NVLink
  EXPECT_EQ(topo.links[1][2].printed, "SYS");
  EXPECT_EQ(topo.links[3][3].printed, "X");
  EXPECT_EQ(topo.gpus[2].cpu_affinity, "4-7");
  EXPECT_EQ(topo.gpus[2].cpus, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(topo.gpus[2].numa_nodes, (std::vector<int>{1}));
  EXPECT_EQ(topo.gpus[0].name, "test GPU");
  ASSERT_EQ(topo.nics.size(), 2u);
  EXPECT_EQ(topo.nics[1].name, "mlx5_1");
  EXPECT_EQ(topo.nics[1].gpu_path[3].printed, "PIX");
  EXPECT_EQ(topo.nics[1].gpu_path[0].printed, "SYS");
  EXPECT_EQ(nvlink_groups(topo), (gb::test::Sets{{0, 1}, {2, 3}}));
}

TEST(FromWiring, NvswitchJoinsEveryPair) {
  SystemWiring w = two_islands();
  w.nvlink.clear();
  w.nvswitch_links = 18;
  const Topology topo = topology_from_wiring(w, "switched");
  EXPECT_EQ(topo.nvswitch, true);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(topo.nvlink(a, b), a == b ? 0 : 18);
}

TEST(FromWiring, ContradictionsAreNamed) {
  const struct {
    void (*edit)(SystemWiring&);
    const char* expected;
  } cases[] = {
      {[](SystemWiring& w) { w.gpus.clear(); }, "0 GPUs"},
      {[](SystemWiring& w) { w.nvswitch_links = 18; }, "both an NVSwitch and direct NVLinks"},
      {[](SystemWiring& w) {
         w.nvlink.push_back({1, 4, 1});
       },
       "NVLink 1-4 names a GPU outside"},
      {[](SystemWiring& w) {
         w.nvlink.push_back({2, 2, 1});
       },
       "joins a GPU to itself"},
      {[](SystemWiring& w) {
         w.nvlink.push_back({1, 0, 2});
       },
       "NVLink 1-0 is listed twice"},
      {[](SystemWiring& w) {
         w.nvlink.push_back({0, 2, 0});
       },
       "has no links"},
      {[](SystemWiring& w) { w.gpus[3].numa = 5; }, "GPU 3 sits on NUMA node 5"},
      {[](SystemWiring& w) { w.numa_nodes[1].cpus.clear(); }, "without CPUs"},
      {[](SystemWiring& w) { w.nics.push_back(w.nics[0]); }, "NIC mlx5_0 is listed twice"},
  };
  for (const auto& c : cases) {
    SystemWiring w = two_islands();
    c.edit(w);
    const auto problem = wiring_problem(w);
    ASSERT_TRUE(problem.has_value()) << c.expected;
    EXPECT_NE(problem->find(c.expected), std::string::npos) << *problem;
    try {
      topology_from_wiring(w, "bad");
      ADD_FAILURE() << "built: " << c.expected;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), "bad: " + *problem);
    }
  }
  EXPECT_FALSE(wiring_problem(two_islands()).has_value());
}

}  // namespace
}  // namespace gb::topo
