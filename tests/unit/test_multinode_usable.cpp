// multinode.hierarchical outside mpirun: with a GPU it refuses with the mpirun
// reason (one rank per GPU), without one it says there is no GPU first, like every GPU method.
// Its device-initiated network variant (network=1) exists exactly in a build with NVSHMEM.
#include <gtest/gtest.h>

#include "core/registry.hpp"
#include "core/run_context.hpp"
#include "multinode/device_network.hpp"

namespace gb {
namespace {

Usability multinode_usable(const RunContext& ctx) {
  for (const auto& m : Registry::instance().create_all())
    if (m->name() == "multinode.hierarchical") return m->usable(ctx);
  ADD_FAILURE() << "multinode.hierarchical is not registered";
  return Usability::yes();
}

TEST(MultinodeUsable, OutsideMpirunItAsksForOneRankPerGpu) {
  RunContext ctx;
  ctx.visible_gpus = 1;
  ctx.gpus = {0};
  const Usability u = multinode_usable(ctx);
  EXPECT_FALSE(u.ok);
  EXPECT_EQ(u.reason, "one rank per GPU: run under mpirun/srun");
}

TEST(MultinodeUsable, WithoutAGpuItSaysSoFirst) {
  RunContext ctx;
  ctx.no_gpu_reason = "cudaErrorNoDevice: no CUDA-capable device is detected";
  const Usability u = multinode_usable(ctx);
  EXPECT_FALSE(u.ok);
  EXPECT_NE(u.reason.find("no CUDA GPU visible"), std::string::npos) << u.reason;
}

#ifdef GB_TEST_WITH_NVSHMEM
TEST(MultinodeUsable, NvshmemProvidesTheDeviceInitiatedNetwork) {
  const mg::DeviceNetwork* net = mg::device_network();
  ASSERT_NE(net, nullptr) << "the NVSHMEM target did not provide network=1";
  EXPECT_NE(net->kernel, nullptr);
  RunContext ctx;
  Point p;
  ctx.launch.nodes = 2;
  EXPECT_EQ(net->problem(ctx, p), "");
  ctx.launch.nodes = 129;  // one leader PE per node, in the kernel's arguments
  EXPECT_EQ(net->problem(ctx, p), "network=1: at most 128 nodes");
}
#else
TEST(MultinodeUsable, WithoutNvshmemNetworkOneSaysWhy) {
  EXPECT_EQ(mg::device_network(), nullptr);
  EXPECT_NE(mg::without_device_network().find("built without NVSHMEM"), std::string::npos);
}
#endif

}  // namespace
}  // namespace gb
