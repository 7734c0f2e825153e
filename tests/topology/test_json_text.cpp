// The JSON and text forms `gpubarrier topo` prints.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "topology/json.hpp"
#include "topology/text.hpp"

namespace gb::topo::test {
namespace {

TEST(TopologyJson, HasTheDocumentedKeys) {
  const nlohmann::json json = to_json(parse_data("merged_header_soc.txt"));
  for (const char* key : {"gpus", "nics", "nvlink", "path", "nvlink_components", "nvlink_groups",
                          "topology_class", "nvswitch", "probes", "subsets", "binding"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["gpus"][2]["index"], 2);
  EXPECT_EQ(json["gpus"][2]["cpu_affinity"], "10-19");
  EXPECT_EQ(json["gpus"][2]["numa_affinity"], "");
  EXPECT_EQ(json["nics"][0]["name"], "mlx5_0");
  EXPECT_EQ(json["nvlink"][0], (std::vector<int>{0, 1, 0, 0}));
  EXPECT_EQ(json["path"][0], (std::vector<std::string>{"X", "NV1", "SOC", "SOC"}));
  EXPECT_EQ(json["nvlink_groups"], (Sets{{0, 1}, {2, 3}}));
  EXPECT_EQ(json["nvlink_components"], (Sets{{0, 1}, {2, 3}}));
  EXPECT_TRUE(json["nvswitch"].is_null());
  EXPECT_FALSE(json.contains("p2p"));
}

TEST(TopologyText, ShowsMatrixGroupsAndClass) {
  const std::string text = to_text(parse_data("crlf_ansi_tabs.txt"));
  EXPECT_NE(text.find("GPU0    X       NV8     PIX     0-7,16-23       0"), std::string::npos)
      << text;
  EXPECT_NE(text.find("NVLink groups:     {0,1}"), std::string::npos) << text;
  EXPECT_NE(text.find("Class:             nv8-clique2"), std::string::npos) << text;
  EXPECT_NE(text.find("NIC0=mlx5_bond_0"), std::string::npos) << text;
}

// A machine without GPUs, as the probes see it: hwloc's CPUs and NUMA nodes, no GPU.
Topology cpu_machine() {
  Topology topo;
  topo.source = "probe of cpu-box";
  topo.host.cpus = "0-3";
  topo.host.cores = 2;
  topo.host.pus = 4;
  topo.host.numa = {{0, "0-1"}, {1, "2-3"}};
  topo.probes = {{"cuda", "unavailable: no CUDA driver"}, {"hwloc", "ok"}};
  return topo;
}

std::size_t count(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

TEST(TopologyText, WithoutGpusShowsCpusAndNumaNodes) {
  const std::string text = to_text(cpu_machine());
  EXPECT_NE(text.find("CPUs:              4 (2 cores): 0-3"), std::string::npos) << text;
  EXPECT_NE(text.find("NUMA nodes:        0: CPUs 0-1; 1: CPUs 2-3"), std::string::npos) << text;
  EXPECT_EQ(count(text, "no GPU"), 1u) << text;
  for (const char* absent : {"NVLink", "NVSwitch", "Class:", "N/A", "not recorded"})
    EXPECT_EQ(text.find(absent), std::string::npos) << absent << " in\n" << text;
}

TEST(TopologyText, OneWordForWhatIsNotKnown) {
  Topology topo = parse_data("crlf_ansi_tabs.txt");
  for (Gpu& gpu : topo.gpus) gpu.cpu_affinity.clear(), gpu.numa_affinity.clear();
  const std::string text = to_text(topo);
  EXPECT_NE(text.find("NVSwitch:          unknown"), std::string::npos) << text;
  EXPECT_EQ(text.find("N/A"), std::string::npos) << text;
  EXPECT_EQ(text.find("CPUs:"), std::string::npos) << "another machine's text has no CPUs of ours";
}

TEST(TopologyJson, HostCpusAndNumaNodes) {
  const nlohmann::json json = to_json(cpu_machine());
  EXPECT_EQ(json["cpus"]["list"], "0-3");
  EXPECT_EQ(json["cpus"]["cores"], 2);
  EXPECT_EQ(json["cpus"]["pus"], 4);
  EXPECT_EQ(json["cpus"]["numa_nodes"][1]["index"], 1);
  EXPECT_EQ(json["cpus"]["numa_nodes"][1]["cpus"], "2-3");
  EXPECT_TRUE(to_json(parse_data("crlf_ansi_tabs.txt"))["cpus"].is_null());
}

}  // namespace
}  // namespace gb::topo::test
