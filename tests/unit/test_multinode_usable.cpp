// multinode.hierarchical outside mpirun (issue 18): with a GPU it refuses with the mpirun
// reason (one rank per GPU), without one it says there is no GPU first, like every GPU method.
#include <gtest/gtest.h>

#include "core/registry.hpp"
#include "core/run_context.hpp"

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

}  // namespace
}  // namespace gb
