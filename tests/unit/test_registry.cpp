#include <gtest/gtest.h>

#include <set>

#include "core/registry.hpp"
#include "core/run_context.hpp"

using namespace gb;

TEST(Registry, HasTheFoundationMethodsSortedAndUnique) {
  const auto methods = Registry::instance().create_all();
  std::set<std::string> names;
  std::string previous;
  for (const auto& m : methods) {
    EXPECT_TRUE(names.insert(std::string(m->name())).second) << "duplicate " << m->name();
    EXPECT_LT(previous, std::string(m->name()));
    previous = m->name();
    EXPECT_FALSE(m->description().empty()) << m->name();
  }
  for (const char* n :
       {"host.omp.barrier", "host.mpi.barrier", "gpu.block.syncthreads", "gpu.grid.cg"})
    EXPECT_TRUE(names.count(n)) << n;
}

TEST(Registry, GpuMethodsSayWhyWithoutGpu) {
  RunContext ctx;
  ctx.no_gpu_reason = "cudaErrorNoDevice: no CUDA-capable device is detected";
  for (const auto& m : Registry::instance().create_all()) {
    if (m->requirements().min_gpus == 0) continue;
    const auto u = m->usable(ctx);
    EXPECT_FALSE(u.ok) << m->name();
    EXPECT_NE(u.reason.find("no CUDA GPU visible: cudaErrorNoDevice"), std::string::npos)
        << u.reason;
  }
}

TEST(Registry, MpiMethodExplainsHowToRunIt) {
  RunContext ctx;
  ctx.launch.mpi_available = true;
  for (const auto& m : Registry::instance().create_all()) {
    if (m->name() != "host.mpi.barrier") continue;
    const auto u = m->usable(ctx);
    EXPECT_FALSE(u.ok);
    EXPECT_NE(u.reason.find("mpirun -np 2 gpubarrier run --methods host.mpi.barrier"),
              std::string::npos);
  }
}
