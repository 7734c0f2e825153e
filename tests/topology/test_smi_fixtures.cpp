// Published `nvidia-smi topo -m` outputs of other machines (DGX-1, HGX A100/H200, B200, GH200, PCIe
// boxes), in the folder GPUBARRIER_TOPO_FIXTURES names, with the groupings and facts that folder's
// README lists for each of them. The repository does not redistribute them; without the folder
// these tests skip and say so.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo::test {
namespace {

const std::filesystem::path kFixtures = GB_TOPO_FIXTURES;

class SmiFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::is_directory(kFixtures))
      GTEST_SKIP() << "no folder of published nvidia-smi outputs (GPUBARRIER_TOPO_FIXTURES="
                   << kFixtures << ")";
  }

  static Topology load(const std::string& name) {
    const auto path = kFixtures / name;
    if (!std::filesystem::exists(path)) throw std::runtime_error("missing fixture " + name);
    return parse_nvidia_smi_topo(read_file(path), name);
  }
};

std::vector<int> all_nvlinked(const Topology& topo, int count) {
  std::vector<int> counts;
  for (int a = 0; a < topo.gpu_count(); ++a)
    for (int b = 0; b < topo.gpu_count(); ++b)
      if (a != b && topo.nvlink(a, b) != count) counts.push_back(a * 100 + b);
  return counts;
}

TEST_F(SmiFixture, EveryFileParses) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    EXPECT_NO_THROW({
      const Topology topo = load(name);
      EXPECT_GT(topo.gpu_count(), 0) << name;
      EXPECT_FALSE(nvlink_groups(topo).empty()) << name;
    }) << name;
  }
  EXPECT_GE(files, 12);
}

TEST_F(SmiFixture, Dgx1P100) {
  const Topology topo = load("dgx1-p100-8gpu-4nic-soc-sheffield.txt");
  ASSERT_EQ(topo.gpu_count(), 8);
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(nvlink_components(topo), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
  int edges = 0;
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b)
      if (topo.nvlink(a, b) > 0) {
        ++edges;
        EXPECT_EQ(topo.nvlink(a, b), 1);
      }
  EXPECT_EQ(edges, 16);
  for (int g = 0; g < 4; ++g) EXPECT_EQ(topo.nvlink(g, g + 4), 1);
  EXPECT_EQ(cell(topo, 0, 5), "SOC");
  EXPECT_EQ(topo.links[0][5].path, PathType::SYS);
  ASSERT_EQ(topo.nics.size(), 4u);
  EXPECT_EQ(topo.nics[1].name, "mlx5_2");
  EXPECT_EQ(topo.nics[2].name, "mlx5_1");
  for (int g : {0, 1}) EXPECT_EQ(nic_path(topo, "mlx5_0", g), "PIX");
  for (int g : {2, 3}) EXPECT_EQ(nic_path(topo, "mlx5_1", g), "PIX");
  for (int g : {4, 5}) EXPECT_EQ(nic_path(topo, "mlx5_2", g), "PIX");
  for (int g : {6, 7}) EXPECT_EQ(nic_path(topo, "mlx5_3", g), "PIX");
  EXPECT_EQ(topo.gpus[3].cpu_affinity, "1-1");
  EXPECT_EQ(topo.gpus[3].cpus, (std::vector<int>{1}));
  EXPECT_EQ(topology_class(topo), "nv1-cubemesh8");
}

TEST_F(SmiFixture, Dgx1V100Like) {
  const Topology topo = load("dgx1v-like-v100-sxm2-8gpu-mlx5-oneflow.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  for (auto [a, b] : {std::pair{0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3}, {4, 7}, {5, 6}, {6, 7}})
    EXPECT_EQ(topo.nvlink(a, b), 2) << a << "-" << b;
  for (auto [a, b] : {std::pair{0, 1}, {0, 2}, {1, 3}, {2, 6}, {3, 7}, {4, 5}, {4, 6}, {5, 7}})
    EXPECT_EQ(topo.nvlink(a, b), 1) << a << "-" << b;
  for (int a = 0; a < 8; ++a) {
    int links = 0;
    for (int b = 0; b < 8; ++b) links += a == b ? 0 : topo.nvlink(a, b);
    EXPECT_EQ(links, 6) << "GPU" << a;
  }
  ASSERT_EQ(topo.nics.size(), 1u);
  EXPECT_EQ(nic_path(topo, "mlx5_0", 2), "PIX");
  EXPECT_EQ(nic_path(topo, "mlx5_0", 3), "PIX");
  EXPECT_EQ(nic_path(topo, "mlx5_0", 0), "NODE");
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "0-11,24-35");
  EXPECT_EQ(topo.gpus[6].cpu_affinity, "12-23,36-47");
  EXPECT_EQ(topo.gpus[6].cpus.size(), 24u);
  EXPECT_EQ(topo.gpus[0].numa_affinity, "");
  EXPECT_EQ(topology_class(topo), "nv1nv2-cubemesh8");
}

TEST_F(SmiFixture, HgxA100Pleiades) {
  const Topology topo = load("hgx-a100-8gpu-mlx5-pleiades.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
  EXPECT_TRUE(all_nvlinked(topo, 12).empty());
  for (int g = 0; g < 8; ++g)
    EXPECT_EQ(nic_path(topo, "mlx5_0", g), g == 2 || g == 3 ? "PXB" : "SYS") << g;
  const std::vector<std::string> numa{"3", "3", "1", "1", "7", "7", "5", "5"};
  for (int g = 0; g < 8; ++g) EXPECT_EQ(topo.gpus[g].numa_affinity, numa[g]);
  EXPECT_EQ(topo.gpus[4].cpu_affinity, "112-127");
  EXPECT_EQ(topology_class(topo), "nv12-clique8");
}

TEST_F(SmiFixture, OciA100Crlf) {
  const Topology topo = load("oci-bm-gpu4-a100-8gpu-18nic-crlf.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
  EXPECT_TRUE(all_nvlinked(topo, 12).empty());
  ASSERT_EQ(topo.nics.size(), 18u);
  for (int n = 0; n < 18; ++n) {
    EXPECT_EQ(topo.nics[n].label, "NIC" + std::to_string(n));
    EXPECT_EQ(topo.nics[n].name, "mlx5_" + std::to_string(n));
  }
  const auto pxb_to = [&](int nic, std::vector<int> gpus) {
    for (int g = 0; g < 8; ++g) {
      const bool near = std::find(gpus.begin(), gpus.end(), g) != gpus.end();
      EXPECT_EQ(topo.nics[nic].gpu_path[g].printed, near ? "PXB" : "SYS") << nic << "/" << g;
    }
  };
  for (int nic = 5; nic <= 8; ++nic) pxb_to(nic, {0, 1});
  for (int nic = 1; nic <= 4; ++nic) pxb_to(nic, {2, 3});
  for (int nic = 14; nic <= 17; ++nic) pxb_to(nic, {4, 5});
  for (int nic = 9; nic <= 12; ++nic) pxb_to(nic, {6, 7});
  pxb_to(0, {});
  pxb_to(13, {});
  const std::vector<std::string> numa{"3", "3", "1", "1", "7", "7", "5", "5"};
  for (int g = 0; g < 8; ++g) {
    EXPECT_EQ(topo.gpus[g].numa_affinity, numa[g]);
    EXPECT_EQ(topo.gpus[g].gpu_numa_id, "N/A");
  }
}

TEST_F(SmiFixture, HgxH200TabsAnsi) {
  const Topology topo = load("hgx-h200-8gpu-10nic-glm52.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
  EXPECT_TRUE(all_nvlinked(topo, 18).empty());
  ASSERT_EQ(topo.nics.size(), 10u);
  EXPECT_EQ(topo.nics[9].name, "mlx5_9");
  EXPECT_EQ(topo.nics[3].gpu_path[0].printed, "PIX");
  EXPECT_EQ(topo.nics[5].gpu_path[1].printed, "PIX");
  EXPECT_EQ(topo.nics[4].gpu_path[2].printed, "PIX");
  for (int nic : {0, 1, 2}) EXPECT_EQ(topo.nics[nic].gpu_path[3].printed, "PIX");
  EXPECT_EQ(topo.nics[7].gpu_path[4].printed, "PIX");
  EXPECT_EQ(topo.nics[9].gpu_path[5].printed, "PIX");
  EXPECT_EQ(topo.nics[8].gpu_path[6].printed, "PIX");
  EXPECT_EQ(topo.nics[6].gpu_path[7].printed, "PIX");
  EXPECT_EQ(topo.gpus[3].cpu_affinity, "0-63,128-191");
  EXPECT_EQ(topo.gpus[4].cpu_affinity, "64-127,192-255");
  EXPECT_EQ(topo.gpus[4].numa_affinity, "1");
  EXPECT_EQ(topo.gpus[4].gpu_numa_id, "N/A");
  EXPECT_EQ(topology_class(topo), "nv18-clique8");
}

TEST_F(SmiFixture, GkeB200Squeezed) {
  const Topology topo = load("gke-a4-b200-8gpu-8nic-dranet.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
  EXPECT_TRUE(all_nvlinked(topo, 18).empty());
  ASSERT_EQ(topo.nics.size(), 8u);
  for (int nic = 0; nic < 8; ++nic)
    for (int g = 0; g < 8; ++g)
      EXPECT_EQ(topo.nics[nic].gpu_path[g].printed == "PIX", nic / 2 == g / 2) << nic << g;
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "0-55,112-167");
  EXPECT_EQ(topo.gpus[7].cpu_affinity, "56-111,168-223");
  EXPECT_EQ(topo.gpus[7].numa_affinity, "1");
  EXPECT_EQ(topo.gpus[7].gpu_numa_id, "N/A");
}

TEST_F(SmiFixture, Gh200Quad) {
  const Topology topo = load("gh200-quad-4gpu-cray-ex-hpcaienvs.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3}}));
  EXPECT_TRUE(all_nvlinked(topo, 6).empty());
  EXPECT_TRUE(topo.nics.empty());
  EXPECT_EQ(topo.gpus[3].cpu_affinity, "216-287");
  EXPECT_EQ(topo.gpus[0].numa_affinity, "0,5-11");
  EXPECT_EQ(topo.gpus[0].numa_nodes, (std::vector<int>{0, 5, 6, 7, 8, 9, 10, 11}));
  const std::vector<std::string> ids{"4", "12", "20", "28"};
  for (int g = 0; g < 4; ++g) EXPECT_EQ(topo.gpus[g].gpu_numa_id, ids[g]);
  EXPECT_EQ(topology_class(topo), "nv6-clique4");
}

TEST_F(SmiFixture, A100IndentedMlx5) {
  const Topology topo = load("a100-sxm-4gpu-nv4-4nic-locuaz.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1, 2, 3}}));
  EXPECT_TRUE(all_nvlinked(topo, 4).empty());
  ASSERT_EQ(topo.nics.size(), 4u);
  for (int g = 0; g < 4; ++g)
    for (int n = 0; n < 4; ++n)
      EXPECT_EQ(nic_path(topo, "mlx5_" + std::to_string(n), g), n == g ? "PXB" : "NODE");
  for (const Gpu& gpu : topo.gpus) {
    EXPECT_EQ(gpu.cpu_affinity, "0-15");
    EXPECT_EQ(gpu.numa_nodes, (std::vector<int>{0}));
  }
}

TEST_F(SmiFixture, AzurePciePairs) {
  const Topology topo = load("azure-nc96ads-a100v4-4gpu-pcie-nv12pairs-malaya.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1}, {2, 3}}));
  EXPECT_EQ(nvlink_components(topo), (Sets{{0, 1}, {2, 3}}));
  EXPECT_EQ(topo.nvlink(0, 1), 12);
  EXPECT_EQ(cell(topo, 1, 2), "SYS");
  for (int g = 0; g < 4; ++g) EXPECT_EQ(topo.gpus[g].numa_nodes, (std::vector<int>{g}));
  EXPECT_EQ(topo.gpus[3].cpu_affinity, "72-95");
  EXPECT_EQ(topology_class(topo), "nv12-islands2x2");
}

TEST_F(SmiFixture, RtxA6000BridgePair) {
  const Topology topo = load("rtx-a6000-3gpu-nvlink-bridge-pair-siboehm.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1}, {2}}));
  EXPECT_EQ(topo.nvlink(0, 1), 4);
  EXPECT_EQ(cell(topo, 2, 0), "NODE");
  EXPECT_EQ(cell(topo, 2, 1), "NODE");
  for (const Gpu& gpu : topo.gpus) {
    EXPECT_EQ(gpu.cpu_affinity, "0-31,64-95");
    EXPECT_EQ(gpu.numa_affinity, "0");
  }
  EXPECT_EQ(topology_class(topo), "nv4-partial3");
}

TEST_F(SmiFixture, TitanXPcieOnly) {
  const Topology topo = load("pcie-4gpu-titanx-2nic-octopus.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0}, {1}, {2}, {3}}));
  EXPECT_EQ(cell(topo, 0, 1), "PHB");
  EXPECT_EQ(cell(topo, 2, 3), "PHB");
  EXPECT_EQ(cell(topo, 1, 2), "SYS");
  EXPECT_EQ(nic_path(topo, "mlx4_0", 1), "PHB");
  EXPECT_EQ(nic_path(topo, "mlx4_1", 2), "PHB");
  EXPECT_EQ(nic_path(topo, "mlx4_1", 0), "SYS");
  EXPECT_EQ(topo.gpus[2].cpu_affinity, "6-11");
  EXPECT_EQ(topo.gpus[2].numa_affinity, "1");
  EXPECT_EQ(topology_class(topo), "pcie-sys4");
}

TEST_F(SmiFixture, L20PcieVm) {
  const Topology topo = load("pcie-2gpu-l20-sys-vm-ncclstudy.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0}, {1}}));
  EXPECT_EQ(cell(topo, 0, 1), "SYS");
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "0-191");
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "192-383");
  EXPECT_EQ(topo.gpus[1].numa_affinity, "1");
  EXPECT_EQ(topology_class(topo), "pcie-sys2");
}

}  // namespace
}  // namespace gb::topo::test
