// What `gpubarrier config check` and the job generator find in a sweep file: `gpu_count: all`,
// misspelt keys with the closest known one, method globs that match nothing, unknown axes;
// each at its file, line and column. And Slurm's time formats.
#include <gtest/gtest.h>

#include "errors/errors.hpp"
#include "jobs/request.hpp"
#include "jobs/sweep_check.hpp"
#include "test_jobs_helpers.hpp"

using namespace gb;
using gb::test::catalogue;

namespace {

// "file:line:column: message" of the first mistake, or "" when there is none.
std::string mistake(const std::string& text) {
  try {
    jobs::check_sweep(parse_sweep_text(text, "s.yaml"), catalogue());
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(JobsSweepCheck, GpuCountAllIsRecordedNotAnAxis) {
  const SweepFile s = parse_sweep_text(
      "runs:\n  - methods: multigpu.*\n    axes: {gpu_count: all, blocks_per_sm: [1]}\n", "s.yaml");
  ASSERT_TRUE(s.runs[0].all_gpu_counts);
  EXPECT_EQ(s.runs[0].all_gpu_counts->line, 3);
  EXPECT_EQ(s.runs[0].axes, (std::vector<std::string>{"blocks_per_sm=1"}));
}

TEST(JobsSweepCheck, AllIsOnlyForGpuCount) {
  try {
    parse_sweep_text("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: all}\n",
                     "s.yaml");
    FAIL() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("'all' is only for gpu_count"), std::string::npos);
  }
}

TEST(JobsSweepCheck, MisspeltKeysNameTheClosestOne) {
  const struct {
    const char* text;
    const char* expected;
  } cases[] = {
      {"run:\n  - methods: x\n", "s.yaml:1:1: run: unknown key 'run'"},
      {"runs:\n  - methods: x\n    axis: {a: [1]}\n", "did you mean 'axes'?"},
      {"runs:\n  - method: x\n", "s.yaml:2:5: runs[0].method: unknown key"},
      {"time_budge: 1\nruns:\n  - methods: x\n", "did you mean 'time_budget'?"},
  };
  for (const auto& c : cases) {
    try {
      parse_sweep_text(c.text, "s.yaml");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
  try {
    parse_sweep_text("runs:\n  - methods: x\n    frobnicate: 1\n", "s.yaml");
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(JobsSweepCheck, GlobsMustMatchRegisteredMethods) {
  const std::string m = mistake("runs:\n  - methods: [host.omp.barrier, gpu.grd.cg]\n");
  EXPECT_EQ(m.rfind("s.yaml:2:14: runs[0].methods: expected a registered method", 0), 0u) << m;
  EXPECT_NE(m.find("got 'gpu.grd.cg'; did you mean 'gpu.grid.cg'?"), std::string::npos) << m;
}

TEST(JobsSweepCheck, AxesMustBelongToTheEntrysMethods) {
  const std::string m =
      mistake("runs:\n  - methods: gpu.grid.cg\n    axes:\n      thread_per_block: [32]\n");
  EXPECT_EQ(m.rfind("s.yaml:4:7: runs[0].axes.thread_per_block: expected an axis of the entry's "
                    "methods (blocks_per_sm, threads_per_block, background)",
                    0),
            0u)
      << m;
  EXPECT_NE(m.find("did you mean 'threads_per_block'?"), std::string::npos) << m;
  // gpu_count: all places an entry at every GPU count, whether or not its methods have the axis.
  EXPECT_EQ(mistake("runs:\n  - methods: host.mpi.barrier\n    axes: {gpu_count: all}\n"), "");
}

TEST(JobsSweepCheck, ShippedSweepsCheck) {
  for (const char* name : {"paper", "quick", "single-gpu", "multi-gpu", "multi-gpu-mpi"})
    EXPECT_NO_THROW(jobs::check_sweep(load_sweep_file(gb::test::sweep_path(name)), catalogue()))
        << name;
}

TEST(JobsTime, SlurmFormats) {
  EXPECT_EQ(jobs::parse_slurm_time("90"), 5400);
  EXPECT_EQ(jobs::parse_slurm_time("90:30"), 5430);
  EXPECT_EQ(jobs::parse_slurm_time("01:30:00"), 5400);
  EXPECT_EQ(jobs::parse_slurm_time("1-12"), 129600);
  EXPECT_EQ(jobs::parse_slurm_time("1-00:30"), 88200);
  EXPECT_EQ(jobs::parse_slurm_time("2-01:00:05"), 176405);
  for (const char* bad : {"", "x", "1:2:3:4", "-5", "0", "1-", "1.5"})
    EXPECT_THROW(jobs::parse_slurm_time(bad), UsageError) << bad;
  EXPECT_EQ(jobs::format_slurm_time(5400), "01:30:00");
  EXPECT_EQ(jobs::format_slurm_time(176405), "2-01:00:05");
}
