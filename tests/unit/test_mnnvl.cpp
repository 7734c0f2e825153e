// The MNNVL decision of multinode.hierarchical (topology/fabric.hpp) with injected NVML answers:
// a GPU whose NVLink fabric spans nodes refuses grouping by node; one whose fabric ends at the
// node (or that has none) allows it; not knowing refuses with what is missing.
#include <gtest/gtest.h>

#include "topology/fabric.hpp"

namespace gb::topo {
namespace {

FabricInfo probed(unsigned state, bool status_ok, unsigned char uuid_byte) {
  FabricInfo f;
  f.source = FabricInfo::Source::probed;
  f.supported = true;
  f.state = state;
  f.status_ok = status_ok;
  f.cluster_uuid[7] = uuid_byte;
  return f;
}

TEST(Mnnvl, CompletedRegistrationWithAClusterSpansNodes) {
  const FabricInfo f = probed(kFabricStateCompleted, true, 0x5a);
  EXPECT_TRUE(spans_nodes(f));
  EXPECT_EQ(node_grouping_problem(f),
            "the NVLink domain spans nodes (MNNVL): grouping by NVLink domain is not implemented");
}

TEST(Mnnvl, NoClusterOrNoCompletedRegistrationEndsAtTheNode) {
  EXPECT_EQ(node_grouping_problem(probed(kFabricStateCompleted, true, 0)), "");      // zero UUID
  EXPECT_EQ(node_grouping_problem(probed(2, true, 0x5a)), "");                       // in progress
  EXPECT_EQ(node_grouping_problem(probed(kFabricStateCompleted, false, 0x5a)), "");  // failed
  FabricInfo none;
  none.source = FabricInfo::Source::probed;  // NVML_ERROR_NOT_SUPPORTED: no fabric at all
  EXPECT_FALSE(spans_nodes(none));
  EXPECT_EQ(node_grouping_problem(none), "");
}

TEST(Mnnvl, NotKnowingRefusesWithWhatIsMissing) {
  FabricInfo f;
  f.source = FabricInfo::Source::no_nvml;
  EXPECT_NE(node_grouping_problem(f).find("built without NVML"), std::string::npos);
  f.source = FabricInfo::Source::no_call;
  EXPECT_NE(node_grouping_problem(f).find("has no nvmlDeviceGetGpuFabricInfoV"), std::string::npos);
  f.source = FabricInfo::Source::failed;
  f.detail = "nvmlInit failed: Driver Not Loaded";
  EXPECT_NE(node_grouping_problem(f).find("cannot tell whether the NVLink domain spans nodes"),
            std::string::npos);
  EXPECT_NE(node_grouping_problem(f).find("Driver Not Loaded"), std::string::npos);
}

}  // namespace
}  // namespace gb::topo
