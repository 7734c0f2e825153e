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

}  // namespace
}  // namespace gb::topo::test
