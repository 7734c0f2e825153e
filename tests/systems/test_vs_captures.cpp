// Systems with a published `nvidia-smi topo -m` capture in GPUBARRIER_TOPO_FIXTURES: what the system
// file's wiring gives must be what the real machine printed. Only facts the capture and the file
// share are compared (an HGX board from another vendor has other CPUs and NICs).
#include <gtest/gtest.h>

#include <algorithm>

#include "helpers.hpp"
#include "topology/from_wiring.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/smi_parser.hpp"
#include "topology/topology_class.hpp"

namespace gb::test {
namespace {

struct Capture {
  const char* system;
  const char* file;
};

// Names the parameter in test listings (ctest shows it).
void PrintTo(const Capture& capture, std::ostream* out) {
  *out << capture.system << " vs " << capture.file;
}

// The machine in each capture is the system or has the same baseboard (see each system file).
const Capture kCaptures[] = {
    {"dgx1-p100", "dgx1-p100-8gpu-4nic-soc-sheffield.txt"},
    {"dgx1-v100", "dgx1v-like-v100-sxm2-8gpu-mlx5-oneflow.txt"},
    {"dgx-a100", "hgx-a100-8gpu-mlx5-pleiades.txt"},
    {"dgx-h200", "hgx-h200-8gpu-10nic-glm52.txt"},
    {"hgx-h200", "hgx-h200-8gpu-10nic-glm52.txt"},
    {"dgx-b200", "gke-a4-b200-8gpu-8nic-dranet.txt"},
};
// Captures whose GPUs sit on the system's NUMA nodes (the others have other CPUs).
const Capture kSameNuma[] = {kCaptures[2], kCaptures[3], kCaptures[5]};
// Captures whose NICs are the system's compute NICs, by name.
const Capture kSameNics[] = {kCaptures[0], kCaptures[5]};

class VersusCapture : public ::testing::TestWithParam<Capture> {
 protected:
  void SetUp() override {
    if (!std::filesystem::is_directory(kCaptureDir))
      GTEST_SKIP() << "no folder of published nvidia-smi outputs (GPUBARRIER_TOPO_FIXTURES="
                   << kCaptureDir << ")";
    const SystemFile sys = load_system(GetParam().system);
    wired_ = topo::topology_from_wiring(sys.wiring, sys.name);
    const auto path = kCaptureDir / GetParam().file;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    real_ = topo::parse_nvidia_smi_topo(read_file(path), GetParam().file);
    ASSERT_EQ(wired_.gpu_count(), real_.gpu_count());
  }

  topo::Topology wired_;
  topo::Topology real_;
};

TEST_P(VersusCapture, SameNvlinkGroups) {
  EXPECT_EQ(topo::nvlink_groups(wired_), topo::nvlink_groups(real_));
  EXPECT_EQ(topo::nvlink_components(wired_), topo::nvlink_components(real_));
  EXPECT_EQ(topo::topology_class(wired_), topo::topology_class(real_));
}

TEST_P(VersusCapture, SameNvlinkCountPerPair) {
  for (int a = 0; a < real_.gpu_count(); ++a)
    for (int b = 0; b < real_.gpu_count(); ++b)
      EXPECT_EQ(wired_.nvlink(a, b), real_.nvlink(a, b)) << "GPU " << a << "-" << b;
}

TEST_P(VersusCapture, SamePciePathWhereNoNvlink) {
  for (int a = 0; a < real_.gpu_count(); ++a)
    for (int b = 0; b < real_.gpu_count(); ++b)
      if (a != b && real_.nvlink(a, b) == 0) {
        EXPECT_EQ(wired_.links[a][b].path, real_.links[a][b].path) << "GPU " << a << "-" << b;
      }
}

class NumaVersusCapture : public VersusCapture {};
class NicsVersusCapture : public VersusCapture {};

TEST_P(NumaVersusCapture, SameNumaNodePerGpu) {
  for (int g = 0; g < real_.gpu_count(); ++g)
    EXPECT_EQ(wired_.gpus[g].numa_nodes, real_.gpus[g].numa_nodes) << "GPU " << g;
}

TEST_P(NicsVersusCapture, SameNicPaths) {
  ASSERT_EQ(wired_.nics.size(), real_.nics.size());
  for (const topo::Nic& real : real_.nics) {
    const auto wired = std::find_if(wired_.nics.begin(), wired_.nics.end(),
                                    [&](const topo::Nic& n) { return n.name == real.name; });
    ASSERT_NE(wired, wired_.nics.end()) << real.name;
    for (int g = 0; g < real_.gpu_count(); ++g)
      EXPECT_EQ(wired->gpu_path[g].path, real.gpu_path[g].path) << real.name << " GPU " << g;
  }
}

std::string system_name(const ::testing::TestParamInfo<Capture>& info) {
  std::string name = info.param.system;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Systems, VersusCapture, ::testing::ValuesIn(kCaptures), system_name);
INSTANTIATE_TEST_SUITE_P(Systems, NumaVersusCapture, ::testing::ValuesIn(kSameNuma), system_name);
INSTANTIATE_TEST_SUITE_P(Systems, NicsVersusCapture, ::testing::ValuesIn(kSameNics), system_name);

}  // namespace
}  // namespace gb::test
