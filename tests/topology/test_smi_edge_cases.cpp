// Hand-written inputs for what real machines and copy-paste do to `nvidia-smi topo -m` output,
// and inputs that must fail with a clear message.
#include <gtest/gtest.h>

#include "errors/errors.hpp"
#include "helpers.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo::test {
namespace {

// The ParseError message for `text`, or "" when it parsed.
std::string parse_error(const std::string& text) {
  try {
    parse_nvidia_smi_topo(text, "input.txt");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(SmiEdgeCases, CrlfAnsiTabsAndNicLegend) {
  const Topology topo = parse_data("crlf_ansi_tabs.txt");
  ASSERT_EQ(topo.gpu_count(), 2);
  EXPECT_EQ(topo.nvlink(0, 1), 8);
  EXPECT_EQ(cell(topo, 0, 0), "X");
  ASSERT_EQ(topo.nics.size(), 1u);
  EXPECT_EQ(topo.nics[0].label, "NIC0");
  EXPECT_EQ(topo.nics[0].name, "mlx5_bond_0");
  EXPECT_EQ(nic_path(topo, "mlx5_bond_0", 1), "SYS");
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "8-15,24-31");
  EXPECT_EQ(topo.gpus[1].numa_affinity, "1");
  EXPECT_EQ(topo.gpus[1].gpu_numa_id, "N/A");
  EXPECT_EQ(topo.source, "crlf_ansi_tabs.txt");
}

TEST(SmiEdgeCases, IndentedBlockWithNicLegend) {
  const Topology topo = parse_data("indented_nic_legend.txt");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1}, {2}}));
  EXPECT_EQ(topo.nics[0].name, "ibp12s0");
  EXPECT_EQ(topo.nics[1].name, "bnxt_re1");
  EXPECT_EQ(nic_path(topo, "bnxt_re1", 2), "PIX");
  EXPECT_EQ(topo.links[0][2].path, PathType::PHB);
  EXPECT_EQ(topo.gpus[2].cpus.size(), 12u);
}

TEST(SmiEdgeCases, HeaderNamesRunTogether) {
  const Topology topo = parse_data("merged_header_soc.txt");
  ASSERT_EQ(topo.gpu_count(), 4);
  ASSERT_EQ(topo.nics.size(), 2u);
  EXPECT_EQ(topo.nics[1].name, "mlx5_1");
  EXPECT_EQ(nic_path(topo, "mlx5_1", 3), "PIX");
  EXPECT_EQ(cell(topo, 0, 2), "SOC");
  EXPECT_EQ(topo.links[0][2].path, PathType::SYS);
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0, 1}, {2, 3}}));
  EXPECT_EQ(topology_class(topo), "nv1-islands2x2");
}

TEST(SmiEdgeCases, SqueezedAndGluedColumns) {
  const Topology topo = parse_data("squeezed_columns.txt");
  EXPECT_EQ(topo.nvlink(0, 1), 12);
  EXPECT_EQ(cell(topo, 0, 2), "SYS");
  EXPECT_EQ(cell(topo, 1, 2), "SYS");
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "48-95");
  EXPECT_EQ(topo.gpus[0].numa_affinity, "0");
  EXPECT_EQ(topo.gpus[0].gpu_numa_id, "N/A");
  EXPECT_EQ(topo.gpus[2].gpu_numa_id, "N/A");
}

TEST(SmiEdgeCases, SingleGpuAmidProse) {
  const Topology topo = parse_data("single_gpu_with_prompt.txt");
  ASSERT_EQ(topo.gpu_count(), 1);
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "0-31");
  EXPECT_EQ(nvlink_groups(topo), (Sets{{0}}));
  EXPECT_EQ(topology_class(topo), "single");
}

TEST(SmiEdgeCases, NaCellsAndNaAffinity) {
  const Topology topo = parse_nvidia_smi_topo(
      "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
      "GPU0\t X \tN/A\tN/A\tN/A\n"
      "GPU1\tN/A\t X \tN/A\tN/A\n",
      "na");
  EXPECT_EQ(topo.links[0][1].path, PathType::Unknown);
  EXPECT_EQ(cell(topo, 0, 1), "N/A");
  EXPECT_TRUE(topo.gpus[0].cpus.empty());
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "N/A");
  EXPECT_EQ(topology_class(topo), "pcie-unknown2");
}

TEST(SmiEdgeCases, UnicodeNoBreakSpacesAndBom) {
  const Topology topo = parse_nvidia_smi_topo(
      "\xEF\xBB\xBF\xC2\xA0\xC2\xA0GPU0\xC2\xA0GPU1\xC2\xA0"
      "CPU Affinity\n"
      "GPU0\xC2\xA0X\xC2\xA0NV2\xC2\xA0"
      "0-3\n"
      "GPU1\xC2\xA0NV2\xC2\xA0X\xC2\xA0"
      "0-3\n",
      "web");
  EXPECT_EQ(topo.nvlink(1, 0), 2);
}

TEST(SmiEdgeCases, EmptyInput) {
  EXPECT_EQ(parse_error(""),
            "input.txt:1: empty input: expected the output of `nvidia-smi topo -m`");
  EXPECT_NE(parse_error(" \n\t\r\n\n").find("empty input"), std::string::npos);
}

TEST(SmiEdgeCases, NotATopology) {
  const std::string error =
      parse_error(read_file(std::filesystem::path(GB_TOPO_TEST_DATA) / "not_topology.txt"));
  EXPECT_NE(error.find("input.txt:1:1: expected the output of `nvidia-smi topo -m`"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("got '+----"), std::string::npos) << error;
  EXPECT_NE(parse_error("hello world\n").find("input.txt:1:1:"), std::string::npos);
}

TEST(SmiEdgeCases, RowWithoutHeader) {
  EXPECT_NE(parse_error("GPU0  X  0-3\n").find("input.txt:1:1: expected the header line"),
            std::string::npos);
}

TEST(SmiEdgeCases, HeaderWithoutRows) {
  EXPECT_NE(parse_error("  GPU0 GPU1 CPU Affinity\n\n")
                .find("input.txt:2: expected the row of "
                      "GPU0"),
            std::string::npos);
}

TEST(SmiEdgeCases, RowShortOfCells) {
  const std::string error = parse_error(
      "  GPU0 GPU1 GPU2\n"
      "GPU0 X NV1 NV1\n"
      "GPU1 NV1 X\n"
      "GPU2 NV1 NV1 X\n");
  EXPECT_NE(error.find("input.txt:3:11: row 'GPU1' ends after 2 cells; expected 3"),
            std::string::npos)
      << error;
}

TEST(SmiEdgeCases, MissingCellShiftsTheDiagonal) {
  const std::string error = parse_error(
      "  GPU0 GPU1 GPU2 CPU Affinity\n"
      "GPU0 X NV1 NV1 0-3\n"
      "GPU1 X NV1 0-3\n"
      "GPU2 NV1 NV1 X 0-3\n");
  EXPECT_NE(error.find("input.txt:3:6: X off the diagonal (GPU1/GPU0)"), std::string::npos)
      << error;
}

TEST(SmiEdgeCases, UnknownConnectionCode) {
  const std::string error = parse_error(
      "  GPU0 GPU1\n"
      "GPU0 X FOO\n"
      "GPU1 FOO X\n");
  EXPECT_NE(error.find("input.txt:2:8: expected a connection code"), std::string::npos) << error;
  EXPECT_NE(error.find("for GPU0/GPU1, got 'FOO'"), std::string::npos) << error;
}

TEST(SmiEdgeCases, AsymmetricNvlinks) {
  const std::string error = parse_error(
      "  GPU0 GPU1\n"
      "GPU0 X NV1\n"
      "GPU1 NV2 X\n");
  EXPECT_NE(error.find("expected the same NVLink count both ways"), std::string::npos) << error;
}

TEST(SmiEdgeCases, MissingGpuRow) {
  const std::string error = parse_error(
      "  GPU0 GPU1 GPU2\n"
      "GPU0 X NV1 NV1\n"
      "GPU2 NV1 NV1 X\n");
  EXPECT_NE(error.find("input.txt:4: expected the row of GPU1"), std::string::npos) << error;
}

TEST(SmiEdgeCases, DuplicateRowAndUnknownRow) {
  EXPECT_NE(parse_error("  GPU0 GPU1\nGPU0 X NV1\nGPU0 X NV1\n").find("a second row for 'GPU0'"),
            std::string::npos);
  EXPECT_NE(parse_error("  GPU0 GPU1\nGPU0 X NV1\nGPU7 NV1 X\n")
                .find("input.txt:3:1: row 'GPU7' is not one of the header's columns"),
            std::string::npos);
}

TEST(SmiEdgeCases, BadCpuList) {
  const std::string error = parse_error(
      "  GPU0 CPU Affinity\n"
      "GPU0 X 0-x\n");
  EXPECT_NE(error.find("input.txt:2:8: expected a list such as 0-15,32-47 or N/A for the CPU "
                       "Affinity of GPU0, got '0-x'"),
            std::string::npos)
      << error;
}

TEST(SmiEdgeCases, ValueAfterTheLastColumn) {
  EXPECT_NE(parse_error("  GPU0 CPU Affinity\nGPU0 X 0-3 7\n")
                .find("unexpected '7' after the last column (CPU Affinity)"),
            std::string::npos);
}

TEST(SmiEdgeCases, GpuColumnsOutOfOrder) {
  EXPECT_NE(parse_error("  GPU0 GPU2\nGPU0 X NV1\nGPU2 NV1 X\n").find("expected column GPU1"),
            std::string::npos);
}

TEST(SmiEdgeCases, TooManyGpus) {
  std::string text = " ";
  const int n = kMaxGpus + 1;
  for (int c = 0; c < n; ++c) text += " GPU" + std::to_string(c);
  text += '\n';
  for (int r = 0; r < n; ++r) {
    text += "GPU" + std::to_string(r);
    for (int c = 0; c < n; ++c) text += r == c ? " X" : " SYS";
    text += '\n';
  }
  EXPECT_NE(parse_error(text).find("more than 64 GPU columns"), std::string::npos);
}

TEST(SmiEdgeCases, LargestNodeParses) {
  std::string text = " ";
  for (int c = 0; c < kMaxGpus; ++c) text += " GPU" + std::to_string(c);
  text += '\n';
  for (int r = 0; r < kMaxGpus; ++r) {
    text += "GPU" + std::to_string(r);
    for (int c = 0; c < kMaxGpus; ++c) text += r == c ? " X" : (r / 8 == c / 8 ? " NV4" : " SYS");
    text += '\n';
  }
  const Topology topo = parse_nvidia_smi_topo(text, "big");
  EXPECT_EQ(nvlink_groups(topo).size(), 8u);
  EXPECT_EQ(topology_class(topo), "nv4-islands8x8");
}

}  // namespace
}  // namespace gb::topo::test
