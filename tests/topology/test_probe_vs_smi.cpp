// GPU test: probing this machine must agree with parsing its own `nvidia-smi topo -m`.
// Exits with 77 (ctest SKIP_RETURN_CODE) when there is no GPU or no nvidia-smi.
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "topology/nvlink_groups.hpp"
#include "topology/probe.hpp"
#include "topology/smi_parser.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo {
namespace {

std::string g_smi_text;
Topology g_probed;

// nvidia-smi prints GPUs in PCI order; CUDA's default order can differ on mixed machines.
class ProbeVsSmi : public ::testing::Test {
 protected:
  void SetUp() override {
    smi_ = parse_nvidia_smi_topo(g_smi_text, "nvidia-smi topo -m");
    ASSERT_EQ(smi_.gpu_count(), g_probed.gpu_count()) << "set CUDA_VISIBLE_DEVICES to none";
  }
  Topology smi_;
};

TEST_F(ProbeVsSmi, SameNvlinkGroupsAndClass) {
  if (g_probed.probes[1].second != "ok") GTEST_SKIP() << "nvml: " << g_probed.probes[1].second;
  EXPECT_EQ(nvlink_groups(g_probed), nvlink_groups(smi_));
  EXPECT_EQ(nvlink_components(g_probed), nvlink_components(smi_));
  EXPECT_EQ(topology_class(g_probed), topology_class(smi_));
  for (int a = 0; a < smi_.gpu_count(); ++a)
    for (int b = 0; b < smi_.gpu_count(); ++b)
      EXPECT_EQ(g_probed.links[a][b].printed, smi_.links[a][b].printed) << a << "/" << b;
}

TEST_F(ProbeVsSmi, SameCpuAndNumaAffinity) {
  if (g_probed.probes[2].second != "ok") GTEST_SKIP() << "hwloc: " << g_probed.probes[2].second;
  for (int g = 0; g < smi_.gpu_count(); ++g) {
    if (!smi_.gpus[g].cpus.empty()) EXPECT_EQ(g_probed.gpus[g].cpus, smi_.gpus[g].cpus) << g;
    if (!smi_.gpus[g].numa_nodes.empty())
      EXPECT_EQ(g_probed.gpus[g].numa_nodes, smi_.gpus[g].numa_nodes) << g;
  }
}

TEST_F(ProbeVsSmi, SameNics) {
  if (g_probed.probes[2].second != "ok") GTEST_SKIP() << "hwloc: " << g_probed.probes[2].second;
  ASSERT_EQ(g_probed.nics.size(), smi_.nics.size());
  for (std::size_t n = 0; n < smi_.nics.size(); ++n)
    for (int g = 0; g < smi_.gpu_count(); ++g)
      EXPECT_EQ(g_probed.nics[n].gpu_path[g].path, smi_.nics[n].gpu_path[g].path)
          << smi_.nics[n].name << "/GPU" << g;
}

bool read_nvidia_smi(std::string& text) {
  FILE* pipe = popen("nvidia-smi topo -m 2>/dev/null", "r");
  if (!pipe) return false;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
  return pclose(pipe) == 0 && !text.empty();
}

}  // namespace
}  // namespace gb::topo

int main(int argc, char** argv) {
  constexpr int kSkip = 77;
  if (!gb::topo::read_nvidia_smi(gb::topo::g_smi_text)) {
    std::cout << "SKIP: nvidia-smi topo -m is not available here\n";
    return kSkip;
  }
  gb::topo::g_probed = gb::topo::probe_local();
  if (gb::topo::g_probed.probes[0].second != "ok") {
    std::cout << "SKIP: no GPU: cuda " << gb::topo::g_probed.probes[0].second << '\n';
    return kSkip;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
