// probe_local() on whatever machine runs the tests: it must answer, and say which probes ran.
#include <gtest/gtest.h>

#include "topology/json.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/probe.hpp"

namespace gb::topo {
namespace {

TEST(ProbeLocal, ReportsEveryProbe) {
  const Topology topo = probe_local();
  ASSERT_EQ(topo.probes.size(), 3u);
  EXPECT_EQ(topo.probes[0].first, "cuda");
  EXPECT_EQ(topo.probes[1].first, "nvml");
  EXPECT_EQ(topo.probes[2].first, "hwloc");
  for (const auto& [name, status] : topo.probes)
    EXPECT_TRUE(status.starts_with("ok") || status.starts_with("unavailable: ")) << name;
  if (topo.probes[0].second != "ok") EXPECT_TRUE(topo.gpus.empty());
#ifndef GPUBARRIER_HAVE_NVML
  EXPECT_EQ(topo.probes[1].second, "unavailable: not built (nvml.h not found at build time)");
#endif
  EXPECT_EQ(topo.links.size(), topo.gpus.size());
  EXPECT_NO_THROW(to_json(topo).dump());
  EXPECT_EQ(nvlink_groups(topo).size() > 0, topo.gpu_count() > 0);
}

}  // namespace
}  // namespace gb::topo
