// selfcheck's figures as CSV rows (core/selfcheck_records.hpp through io/row.hpp): the names,
// point, technique and notes that gpubarrier_tools/cli/report.py and gpubarrier_tools/cli/plot.py read back.
#include <gtest/gtest.h>

#include "core/run_context.hpp"
#include "core/selfcheck_records.hpp"
#include "io/row.hpp"

using namespace gb;
using namespace gb::selfcheck;

namespace {

RunContext one_gpu() {
  RunContext ctx;
  ctx.env.host = "node7";
  ctx.env.gpu_model = "NVIDIA H200";
  ctx.gpus = {3};
  ctx.visible_gpus = 4;
  return ctx;
}

Measurement differential_cycles() {
  Measurement m;
  m.metric = Metric::latency;
  m.unit = "cycles";
  m.technique = Technique::differential;
  m.value = m.stats.mean = 4.05;
  m.stats.stddev = 0.95;
  m.stats.count = 549;
  m.reps_lo = 10240;
  m.reps_hi = 15360;
  m.stop = StopReason::converged;
  return m;
}

}  // namespace

TEST(SelfcheckRecords, LoopFigureBecomesAKernelLevelRow) {
  const RunContext ctx = one_gpu();
  const RecordMaker records(ctx, "run-1", "single");
  const Row row = to_row(records.loop(5120, 20, differential_cycles(), "judged"));
  EXPECT_EQ(row.get("method"), "selfcheck.fadd.loop");
  EXPECT_EQ(row.get("level"), "kernel");
  EXPECT_EQ(row.get("run_id"), "run-1");
  EXPECT_EQ(row.get("host"), "node7");
  EXPECT_EQ(row.get("gpu_count"), "1");
  EXPECT_EQ(row.get("gpu_ids"), "3");
  EXPECT_EQ(row.get("topology"), "single");
  EXPECT_EQ(row.get("config"), "repeat_difference=5120 base_trips=20");
  EXPECT_EQ(row.get("technique"), "differential");
  EXPECT_EQ(row.get("metric"), "cycles_per_add");
  EXPECT_EQ(row.get("unit"), "cycles");
  EXPECT_EQ(row.get("reps_lo"), "10240");
  EXPECT_EQ(row.get("reps_hi"), "15360");
  EXPECT_EQ(row.get("samples"), "549");
  EXPECT_EQ(row.get("value"), "4.05");
  EXPECT_EQ(row.get("stddev"), "0.95");
  EXPECT_EQ(row.get("status"), "ok");
  EXPECT_EQ(row.get("note"), "judged");
}

TEST(SelfcheckRecords, UnrolledChainsHaveTheirOwnMethodAndBase) {
  const RunContext ctx = one_gpu();
  const RecordMaker records(ctx, "run-1", "single");
  const Row row = to_row(records.unrolled(0, 512, differential_cycles(), "base"));
  EXPECT_EQ(row.get("method"), "selfcheck.fadd.unrolled");
  EXPECT_EQ(row.get("config"), "repeat_difference=0 base_adds=512");
}

TEST(SelfcheckRecords, WithoutAGpuBothMethodsAreSkippedWithTheReason) {
  RunContext ctx;
  const RecordMaker records(ctx, "run-1", "none");
  const auto skipped = records.skipped("no CUDA GPU visible: no driver");
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].method, "selfcheck.fadd.loop");
  EXPECT_EQ(skipped[1].method, "selfcheck.fadd.unrolled");
  for (const Record& r : skipped) {
    const Row row = to_row(r);
    EXPECT_EQ(row.get("status"), "skipped");
    EXPECT_EQ(row.get("note"), "no CUDA GPU visible: no driver");
    EXPECT_EQ(row.get("value"), "");  // no figure that could be read as one
    EXPECT_EQ(row.get("gpu_count"), "0");
    EXPECT_EQ(row.get("level"), "kernel");
  }
}

TEST(SelfcheckRecords, NotesHaveTheFormThatReportsParse) {
  EXPECT_EQ(clock_note(1.9804e9), "SM clock 1980 MHz measured");

  LoopRow r;
  r.deviation = -0.0131;
  r.agreement = Agreement::tolerance;
  r.clock_hz = 1.98e9;
  EXPECT_EQ(agreement_note(r, 0.05),
            "deviation -1.3%; agreement tolerance (tolerance 5%, or 2 standard errors); SM clock "
            "1980 MHz in the pair's kernels");
  r.deviation = 0.136;
  r.agreement = Agreement::none;
  EXPECT_EQ(agreement_note(r, 0.05).substr(0, 32), "deviation +13.6%; agreement none");

  const Figure base{3.996, 0.001, 20, StopReason::converged};
  EXPECT_EQ(base_chain_note(512), "8 KiB of code; the base chain");
  EXPECT_EQ(fit_note(2560, {3.999, 0.001, 20, StopReason::converged}, base, 512),
            "40 KiB of code; fits the instruction cache (+0.1% against the 512-add chain, margin "
            "10%)");
  EXPECT_EQ(fit_note(10752, {5.005, 0.001, 20, StopReason::converged}, base, 512),
            "168 KiB of code; overflows the instruction cache (+25.3% against the 512-add chain, "
            "margin 10%)");

  ChainRow c;
  c.launch = {771.4, 90.2};
  EXPECT_EQ(launch_note(c, 1.98e9),
            "launch difference +771 cycles (standard error 90); SM clock 1980 MHz measured");
}
