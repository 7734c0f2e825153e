// The multi-GPU reductions say why a launch mode cannot run them, before any CUDA
// call: omp is threads mode only, mpi needs mpirun, device-barrier and nccl take both.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/run_context.hpp"

using namespace gb;

namespace {

std::unique_ptr<Method> method(const std::string& name) {
  for (auto& m : Registry::instance().create_all())
    if (m->name() == name) return std::move(m);
  return nullptr;
}

// Two GPUs visible; under mpirun with two ranks on this node, or one process.
RunContext two_gpus(bool under_mpi) {
  RunContext ctx;
  ctx.visible_gpus = 2;
  ctx.gpus = under_mpi ? std::vector<int>{0} : std::vector<int>{0, 1};
  ctx.compute_capability = 90;
  ctx.env.nccl = "2.28.9";
  ctx.launch.mpi_available = true;
  ctx.launch.under_mpi = under_mpi;
  ctx.launch.size = ctx.launch.local_size = under_mpi ? 2 : 1;
  return ctx;
}

}  // namespace

TEST(MultiReduction, EveryOneIsRegistered) {
  for (const char* n : {"reduction.multi.device-barrier", "reduction.multi.omp",
                        "reduction.multi.mpi", "reduction.multi.nccl"}) {
    const auto m = method(n);
    ASSERT_NE(m, nullptr) << n;
    EXPECT_EQ(m->level(), Level::multi_gpu);
    bool bytes = false, gpu_count = false;
    for (const Axis& a : m->axes()) {
      bytes = bytes || a.name == "bytes";
      gpu_count = gpu_count || a.name == "gpu_count";
    }
    EXPECT_TRUE(bytes && gpu_count) << n;
  }
}

TEST(MultiReduction, OmpIsThreadsModeOnly) {
  const auto m = method("reduction.multi.omp");
  EXPECT_TRUE(m->usable(two_gpus(false)).ok);
  const Usability u = m->usable(two_gpus(true));
  EXPECT_FALSE(u.ok);
  EXPECT_NE(u.reason.find("threads mode only"), std::string::npos) << u.reason;
}

TEST(MultiReduction, MpiNeedsMpirun) {
  const auto m = method("reduction.multi.mpi");
  EXPECT_TRUE(m->usable(two_gpus(true)).ok);
  const Usability u = m->usable(two_gpus(false));
  EXPECT_FALSE(u.ok);
  EXPECT_NE(u.reason.find("mpirun -np 2 gpubarrier run --methods reduction.multi.mpi"),
            std::string::npos)
      << u.reason;
}

TEST(MultiReduction, DeviceBarrierAndNcclTakeBothModes) {
  for (const char* n : {"reduction.multi.device-barrier", "reduction.multi.nccl"}) {
    const auto m = method(n);
    EXPECT_TRUE(m->usable(two_gpus(false)).ok) << n << ": " << m->usable(two_gpus(false)).reason;
    EXPECT_TRUE(m->usable(two_gpus(true)).ok) << n << ": " << m->usable(two_gpus(true)).reason;
  }
}
