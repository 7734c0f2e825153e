#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/registry.hpp"
#include "core/run_context.hpp"
#include "io/row.hpp"

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
  const auto methods = Registry::instance().create_all();
  const auto it = std::find_if(methods.begin(), methods.end(),
                               [](const auto& m) { return m->name() == "host.mpi.barrier"; });
  ASSERT_NE(it, methods.end()) << "host.mpi.barrier is not registered";
  const auto u = (*it)->usable(ctx);
  EXPECT_FALSE(u.ok);
  EXPECT_NE(u.reason.find("mpirun -np 2 gpubarrier run --methods host.mpi.barrier"),
            std::string::npos)
      << u.reason;
}

// A Measurement that says skipped (a library refused while measuring) becomes a row without
// figures, like every other skipped row.
TEST(Rows, SkippedMeasurementCarriesNoFigures) {
  RunContext ctx;
  const auto methods = Registry::instance().create_all();
  const std::string run_id = "r";
  const Point point;
  Measurement m;
  m.metric = Metric::latency;
  m.unit = "ns";
  m.status = Status::skipped;
  m.note = "the library refused";
  const Row row =
      to_row(with_figure(make_record(ctx, run_id, *methods.front(), point, "", Status::ok, ""), m));
  const auto& cols = Row::columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == "value" || cols[i] == "samples" || cols[i] == "metric")
      EXPECT_EQ(row.fields[i], "") << cols[i];
    if (cols[i] == "status") EXPECT_EQ(row.fields[i], "skipped");
    if (cols[i] == "note") EXPECT_EQ(row.fields[i], "the library refused");
  }
}
