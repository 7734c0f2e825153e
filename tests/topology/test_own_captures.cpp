// The project's own `nvidia-smi topo -m` captures, committed beside the rows they describe
// (results/<machine>/nvidia-smi-topo.txt, captured by gpubarrier's GPU-machine scripts on the
// H100 and H200 hosts it measured): raw tab-separated output with the ANSI-underlined header
// that nvidia-smi prints. Every clone has them, so these tests run the same everywhere.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo::test {
namespace {

struct OwnCapture {
  const char* file;  // relative to results/
  int gpus;
  const char* cpus;  // every GPU's CPU affinity
  const char* topology_class;
};

void PrintTo(const OwnCapture& capture, std::ostream* out) { *out << capture.file; }

const OwnCapture kOwnCaptures[] = {
    {"h100/nvidia-smi-topo.txt", 1, "0-15", "single"},
    {"h200/v3/nvidia-smi-topo.txt", 1, "0-15", "single"},
    {"h100x2/nvidia-smi-topo.txt", 2, "0-31", "nv18-clique2"},
    {"h200x2/nvidia-smi-topo.txt", 2, "0-31", "nv18-clique2"},
    {"h100x4/nvidia-smi-topo.txt", 4, "0-63", "nv18-clique4"},
    {"h200x4/nvidia-smi-topo.txt", 4, "0-63", "nv18-clique4"},
};

class OwnCaptureTest : public ::testing::TestWithParam<OwnCapture> {};

TEST_P(OwnCaptureTest, ParsesAsOneNv18Clique) {
  const auto path = std::filesystem::path(GB_RESULTS_DIR) / GetParam().file;
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  const Topology topo = parse_nvidia_smi_topo(read_file(path), GetParam().file);
  const int n = GetParam().gpus;
  ASSERT_EQ(topo.gpu_count(), n);
  std::vector<int> all;
  for (int g = 0; g < n; ++g) all.push_back(g);
  EXPECT_EQ(nvlink_groups(topo), Sets{all});
  for (int a = 0; a < n; ++a) {
    EXPECT_EQ(topo.gpus[a].cpu_affinity, GetParam().cpus) << a;
    EXPECT_EQ(topo.gpus[a].numa_affinity, "0") << a;
    EXPECT_EQ(topo.gpus[a].gpu_numa_id, "N/A") << a;
    for (int b = 0; b < n; ++b)
      if (a != b) EXPECT_EQ(topo.nvlink(a, b), 18) << a << "-" << b;
  }
  EXPECT_TRUE(topo.nics.empty());
  EXPECT_EQ(topology_class(topo), GetParam().topology_class);
}

INSTANTIATE_TEST_SUITE_P(Results, OwnCaptureTest, ::testing::ValuesIn(kOwnCaptures));

}  // namespace
}  // namespace gb::topo::test
