// Schema v3: provenance of the build, driver and GPUs in every row, the SM clock and the statistic
// a figure was computed with, and records that keep all of it across an isolated child's pipe.
#include <gtest/gtest.h>

#include <cmath>

#include "core/fusion.hpp"
#include "core/run_context.hpp"
#include "core/techniques.hpp"
#include "io/point_stream.hpp"
#include "io/raw_writer.hpp"
#include "io/row.hpp"
#include "quick_context.hpp"

using namespace gb;

namespace {

const MethodId kGridCg{"gpu.grid.cg", Level::grid, 1};
const MethodId kHost{"host.omp.barrier", Level::host, 0};

RunContext two_gpus() {
  RunContext ctx;
  ctx.env.version = "0.1.0";
  ctx.env.git_sha = "0123456789ab";
  ctx.env.nvidia_driver = "580.159.04";
  ctx.env.gpus = {{"NVIDIA H200", "GPU-aaaaaaaa-0000-0000-0000-000000000000"},
                  {"NVIDIA H200", "GPU-bbbbbbbb-0000-0000-0000-000000000000"},
                  {"NVIDIA H100 80GB HBM3", "GPU-cccccccc-0000-0000-0000-000000000000"}};
  ctx.gpus = {0, 1};
  return ctx;
}

Measurement figure(const std::string& statistic) {
  Measurement m;
  m.metric = Metric::latency;
  m.unit = "ns";
  m.statistic = parse_name<Statistic>(statistic, "statistic");
  m.technique = m.statistic == Statistic::median ? Technique::clock : Technique::differential;
  m.value = 10;
  m.stats.count = 3;
  m.stats.mean = m.stats.median = 10;
  m.stats.cv = 0.01;
  m.stop = StopReason::converged;
  m.samples = {9.5, 10, 10.5};
  return m;
}

}  // namespace

TEST(RowV3, ProvenanceColumnsFollowSlurmStepId) {
  EXPECT_EQ(kSchemaVersion, 5);
  const auto& cols = Row::columns();
  ASSERT_EQ(cols.size(), 52u);
  const std::vector<std::string> tail(cols.end() - 9, cols.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"slurm_step_id", "gpubarrier_version", "git_sha",
                                            "nvidia_driver", "gpu_uuids", "sm_clock_mhz",
                                            "statistic", "mpi_thread_level", "sm_clock_source"}));
  EXPECT_EQ(Row::columns_of_version(5), cols);
  EXPECT_EQ(Row::columns_of_version(4), std::vector<std::string>(cols.begin(), cols.end() - 1));
  EXPECT_EQ(Row::columns_of_version(3), std::vector<std::string>(cols.begin(), cols.end() - 2));
  EXPECT_TRUE(Row::columns_of_version(6).empty());
  EXPECT_TRUE(Row::numeric()[cols.size() - 4]);  // sm_clock_mhz
}

// v4: the MPI thread level the launch got, on every row of the process; empty outside MPI.
TEST(RowV4, MpiThreadLevelComesFromTheLaunch) {
  RunContext ctx = two_gpus();
  EXPECT_EQ(to_row(make_record(ctx, "r", kGridCg, Point{}, "", Status::skipped, "why"))
                .get("mpi_thread_level"),
            "");
  ctx.launch.thread_level = "funneled";
  EXPECT_EQ(to_row(make_record(ctx, "r", kGridCg, Point{}, "", Status::skipped, "why"))
                .get("mpi_thread_level"),
            "funneled");
}

TEST(RowV3, BuildAndDriverOnEveryRowGpusOnlyOnGpuRows) {
  const RunContext ctx = two_gpus();
  const Row gpu = to_row(make_record(ctx, "r", kGridCg, Point{}, "", Status::skipped, "why"));
  EXPECT_EQ(gpu.get("gpubarrier_version"), "0.1.0");
  EXPECT_EQ(gpu.get("git_sha"), "0123456789ab");
  EXPECT_EQ(gpu.get("nvidia_driver"), "580.159.04");
  EXPECT_EQ(gpu.get("gpu_model"), "NVIDIA H200");  // one name when all are the same
  EXPECT_EQ(gpu.get("gpu_uuids"),
            "GPU-aaaaaaaa-0000-0000-0000-000000000000,GPU-bbbbbbbb-0000-0000-0000-000000000000");
  const Row host = to_row(make_record(ctx, "r", kHost, Point{}, "", Status::ok, ""));
  EXPECT_EQ(host.get("git_sha"), "0123456789ab");
  EXPECT_EQ(host.get("gpu_model"), "");
  EXPECT_EQ(host.get("gpu_uuids"), "");
}

TEST(RowV3, MixedModelsAreListedInGpuIdsOrder) {
  RunContext ctx = two_gpus();
  ctx.gpus = {2, 0};
  const Record r = make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, "");
  EXPECT_EQ(gpu_model_of(r), "NVIDIA H100 80GB HBM3,NVIDIA H200");
  EXPECT_EQ(gpu_uuids_of(r).substr(0, 12), "GPU-cccccccc");
}

TEST(RowV3, AFigureOnAPairOfTheGpusNamesThatPair) {
  RunContext ctx = two_gpus();
  ctx.gpus = {0, 1, 2};
  Measurement m = figure("eq7");
  m.gpus = {2, 1};
  const Record r = with_figure(make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, ""), m);
  EXPECT_EQ(join_ids(r.gpu_ids), "2,1");
  EXPECT_EQ(gpu_model_of(r), "NVIDIA H100 80GB HBM3,NVIDIA H200");
  EXPECT_EQ(gpu_uuids_of(r).substr(41, 12), "GPU-bbbbbbbb");
}

TEST(RowV3, UnderMpiEveryRanksGpuIsNamed) {
  RunContext ctx = two_gpus();
  ctx.launch.under_mpi = true;
  ctx.launch.size = 2;
  ctx.collective = true;
  ctx.gpus = {0};
  ctx.rank_gpus = {0, 0};  // ordinal 0 on two nodes: two different GPUs
  ctx.env.rank_gpus = {{"NVIDIA H200", "GPU-node1"}, {"NVIDIA H200", "GPU-node2"}};
  const Record r = make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, "");
  EXPECT_EQ(join_ids(r.gpu_ids), "0,0");
  EXPECT_EQ(gpu_uuids_of(r), "GPU-node1,GPU-node2");
  EXPECT_EQ(gpu_model_of(r), "NVIDIA H200");
}

TEST(RowV3, StatisticAndSmClockComeFromTheFigure) {
  const RunContext ctx = two_gpus();
  Measurement m = figure("median");
  m.sm_clock_hz = 1980e6;
  m.sm_clock_source = "nvml";
  const Row clock =
      to_row(with_figure(make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, ""), m));
  EXPECT_EQ(clock.get("statistic"), "median");
  EXPECT_EQ(clock.get("sm_clock_mhz"), "1980");
  EXPECT_EQ(clock.get("sm_clock_source"), "nvml");  // v5
  const Row diff = to_row(
      with_figure(make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, ""), figure("eq7")));
  EXPECT_EQ(diff.get("statistic"), "eq7");
  EXPECT_EQ(diff.get("sm_clock_mhz"), "");  // not measured
  EXPECT_EQ(diff.get("sm_clock_source"), "");
  const Row skipped = to_row(make_record(ctx, "r", kGridCg, Point{}, "", Status::skipped, "no"));
  EXPECT_EQ(skipped.get("statistic"), "");
}

TEST(RowV3, TechniquesNameTheirStatisticAndKeepTheirSamples) {
  const RunContext ctx = test::quick_context();
  const Measurement loop = host_loop(
      ctx, [] {}, 1);
  EXPECT_EQ(loop.statistic, Statistic::median);
  EXPECT_EQ(loop.samples.size(), loop.stats.count);
  double t = 0;
  const Measurement diff = differential(ctx, [&](long reps) { return (t += 1e-9) + reps * 1e-9; });
  EXPECT_EQ(diff.statistic, Statistic::eq7);
  EXPECT_EQ(diff.samples.size(), diff.stats.count);
  const Measurement fused = fusion(
      ctx, [](long launches, long units) { return 1e-6 * launches + 1e-7 * units; }, 4, 2);
  EXPECT_EQ(fused.statistic, Statistic::eq6);
  // An estimate above the GPU's maximum is converted at NVML's reading, and says so.
  const auto clock = clock_technique(
      ctx, [] { return 100.0; }, choose_sm_clock(2.01e9, 2e9, 2e9), 8);
  ASSERT_EQ(clock.size(), 2u);
  for (const Measurement& c : clock) {
    EXPECT_EQ(c.statistic, Statistic::median);
    EXPECT_EQ(c.sm_clock_hz, 2e9);
    EXPECT_EQ(c.sm_clock_source, "nvml");
    ASSERT_FALSE(c.samples.empty());
  }
  EXPECT_EQ(clock[1].note.rfind("SM clock 2000 MHz from NVML", 0), 0u) << clock[1].note;
  EXPECT_EQ(clock[0].samples.front(), 100.0);  // cycles
  EXPECT_EQ(clock[1].samples.front(), 50.0);   // ns at 2 GHz
}

TEST(RowV3, RecordsKeepProvenanceAndSamplesThroughThePipe) {
  RunContext ctx = two_gpus();
  Measurement m = figure("eq6");
  m.sm_clock_hz = 1755.5e6;
  m.sm_clock_source = "max";
  m.samples = {1.0 / 3.0, 2.5, std::nan("")};
  const Record r = with_figure(make_record(ctx, "r", kGridCg, Point{}, "", Status::ok, ""), m);
  const Record back = decode_point_message(encode_record(r)).record;
  EXPECT_EQ(to_row(back).fields, to_row(r).fields);
  EXPECT_EQ(back.gpus, r.gpus);
  EXPECT_EQ(back.figure.sm_clock_hz, m.sm_clock_hz);
  EXPECT_EQ(back.figure.sm_clock_source, "max");
  ASSERT_EQ(back.figure.samples.size(), 3u);
  EXPECT_EQ(back.figure.samples[0], 1.0 / 3.0);
  EXPECT_TRUE(std::isnan(back.figure.samples[2]));
}

TEST(RawFile, OneLinePerSampleInTheRowsUnit) {
  const RunContext ctx = two_gpus();
  const Record r = with_figure(
      make_record(ctx, "run1", kGridCg, Point({{"blocks_per_sm", 2}}), "", Status::ok, ""),
      figure("eq7"));
  EXPECT_EQ(RawWriter::columns(),
            (std::vector<std::string>{"run_id", "method", "config", "gpu_ids", "launcher", "metric",
                                      "unit", "statistic", "sample", "value"}));
  const auto lines = raw_lines(r);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], (std::vector<std::string>{"run1", "gpu.grid.cg", "blocks_per_sm=2", "0,1",
                                                "single", "latency", "ns", "eq7", "1", "10"}));
  EXPECT_TRUE(
      raw_lines(make_record(ctx, "run1", kGridCg, Point{}, "", Status::skipped, "no")).empty());
}
