// The scripts the job generator writes for dgx-h100 and the paper sweep: batch options, the
// signal/requeue machinery, GPU selection by local rank, CPU binding, and what they never do.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "errors/errors.hpp"
#include "jobs/job_folder.hpp"
#include "jobs/scripts.hpp"
#include "jobs/step_command.hpp"
#include "jobs/template.hpp"
#include "test_jobs_helpers.hpp"
#include "text_contains.hpp"

using namespace gb;
using gb::test::catalogue;
using gb::test::request;

namespace {

const jobs::JobFile& file(const std::vector<jobs::JobFile>& files, const std::string& path) {
  for (const auto& f : files)
    if (f.path == path) return f;
  throw std::runtime_error("no file " + path);
}

using gb::test::has;

// A command as one line: long parts of a step are continued two columns further in.
std::string unwrapped(std::string text) {
  for (std::size_t at; (at = text.find(" \\\n    ")) != std::string::npos;)
    text.replace(at, 7, " ");
  return text;
}

std::vector<jobs::JobFile> paper_files(jobs::JobRequest r) {
  return jobs::job_files(jobs::make_plan(r, catalogue()));
}

}  // namespace

TEST(JobsScripts, BatchScriptAsksForWholeNodesAndRequeuesItself) {
  auto r = request("dgx-h100", "paper");
  r.subsets = {jobs::Subset::best, jobs::Subset::worst};
  const auto plan = jobs::make_plan(r, catalogue());
  const std::string s = file(jobs::job_files(plan), "n1.sbatch").text;
  EXPECT_EQ(s.rfind("#!/bin/bash\n#SBATCH --job-name=gb-paper-n1\n", 0), 0u) << s.substr(0, 200);
  for (const char* line :
       {"#SBATCH --nodes=1\n", "#SBATCH --ntasks-per-node=8\n", "#SBATCH --cpus-per-task=28\n",
        "#SBATCH --gres=gpu:8\n", "#SBATCH --exclusive\n", "#SBATCH --signal=B:USR1@120\n",
        "#SBATCH --requeue\n", "#SBATCH --open-mode=append\n"})
    EXPECT_TRUE(has(s, line)) << line;
  EXPECT_TRUE(has(s, "#SBATCH --time=" + jobs::format_slurm_time(plan.scripts[0].time_limit_s)));
  EXPECT_TRUE(has(s, "#SBATCH --output=" + plan.request.out + "/logs/%x-%j.out\n"));
  // Placeholders (null) in the system file: the site's defaults, so no line at all.
  EXPECT_FALSE(has(s, "--partition"));
  EXPECT_FALSE(has(s, "--account"));
  // The trap requeues, capped on SLURM_RESTART_COUNT; steps run in the background with wait.
  EXPECT_TRUE(has(s, "trap on_usr1 USR1"));
  EXPECT_TRUE(has(s, "scontrol requeue \"$SLURM_JOB_ID\""));
  EXPECT_TRUE(has(s, "${SLURM_RESTART_COUNT:-0}"));
  EXPECT_TRUE(has(s, "\"$@\" &\n"));
  EXPECT_TRUE(has(s, "wait \"$pid\""));
  EXPECT_TRUE(has(s, "export NCCL_NVLS_ENABLE=0\n"));
  // Every #SBATCH line comes before the first command (sbatch stops reading at it).
  const auto last = s.rfind("#SBATCH");
  EXPECT_LT(last, s.find("set -uo pipefail"));
}

TEST(JobsScripts, EveryStepResumesItsOwnCsvAndSelectsGpusByLocalRank) {
  auto r = request("dgx-h100", "paper");
  r.subsets = {jobs::Subset::best, jobs::Subset::worst};
  const auto plan = jobs::make_plan(r, catalogue());
  const auto files = jobs::job_files(plan);
  const std::string s = unwrapped(file(files, "n1.sbatch").text);
  std::size_t steps = 0;
  for (const auto& step : plan.scripts[0].steps) {
    ++steps;
    EXPECT_TRUE(has(s, "run_step " + step.id + " \\\n")) << step.id;
    EXPECT_TRUE(has(s, "sweep \"$JOBDIR/sweeps/" + step.id +
                           ".yaml\" --resume --out "
                           "\"$JOBDIR/results/" +
                           step.id + ".csv\" --system dgx-h100"))
        << step.id;
    EXPECT_NO_THROW(file(files, "sweeps/" + step.id + ".yaml")) << step.id;
  }
  EXPECT_EQ(steps, 27u);
  // mpi: one rank per GPU, the GPU and CPUs of each local rank through rank.sh.
  EXPECT_TRUE(has(s,
                  "run_step n1-mpi-g2-worst \\\n"
                  "  srun --nodes=1 --ntasks=2 --ntasks-per-node=2 --kill-on-bad-exit=1 "
                  "--mpi=pmix --cpu-bind=cores \\\n"
                  "  \"$JOBDIR/rank.sh\" ranks 0/4 0,112/56,168 -- \\\n"))
      << s;
  // threads and single: one process that is no MPI rank, every GPU of the subset.
  EXPECT_TRUE(has(s,
                  "run_step n1-threads-g4-worst \\\n"
                  "  srun --nodes=1 --ntasks=1 --mpi=none --cpus-per-task=224 --cpu-bind=none \\\n"
                  "  \"$JOBDIR/rank.sh\" process 0,1,4,5 0-223 -- \\\n"))
      << s;
  const std::string rank = file(files, "rank.sh").text;
  EXPECT_TRUE(has(rank, "local_rank=${SLURM_LOCALID:-${OMPI_COMM_WORLD_LOCAL_RANK:-0}}"));
  EXPECT_TRUE(has(rank, "export GPUBARRIER_GPUS"));
  EXPECT_TRUE(has(rank, "exec taskset -c \"$cpulist\" \"$@\""));
  EXPECT_TRUE(has(rank, "unset SLURM_PROCID"));
}

TEST(JobsScripts, NeverHideGpusFromRanks) {
  for (const char* system : {"dgx-h100", "dgx1-v100", "gb200-nvl72", "local-slurm"}) {
    auto r = request(system, "paper");
    if (std::string(system) != "local-slurm") r.subsets = {jobs::Subset::best, jobs::Subset::worst};
    r.nodes = {1, 2};
    for (const auto& f : paper_files(r)) {
      // Code, not the comments that explain why: CUDA IPC and peer access need every GPU.
      for (const char* banned : {"--gpu-bind", "--gpus-per-task", "CUDA_VISIBLE_DEVICES="}) {
        std::istringstream lines(f.text);
        for (std::string line; std::getline(lines, line);)
          if (line.rfind("#", 0) != 0 || line.rfind("#SBATCH", 0) == 0)
            EXPECT_FALSE(has(line, banned)) << system << " " << f.path << ": " << line;
      }
    }
  }
}

TEST(JobsScripts, SubmitAddsAMergeJobAfterAll) {
  auto r = request("dgx-h100", "paper");
  r.nodes = {1, 2};
  const auto files = paper_files(r);
  const std::string submit = file(files, "submit.sh").text;
  EXPECT_TRUE(has(submit, "scripts=(n1.sbatch n2.sbatch)"));
  EXPECT_TRUE(has(submit, "--dependency=\"afterany:$after\""));
  const std::string merge = file(files, "merge.sbatch").text;
  EXPECT_TRUE(
      has(merge,
          "\"$GPUBARRIER\" merge \"${csvs[@]}\" --out \"$JOBDIR/merged.csv\" --force --summary"));
  EXPECT_FALSE(has(merge, "--gres"));
  const std::string readme = file(files, "README.md").text;
  for (const char* part :
       {"submit.sh", "squeue", "merge", "n1-mpi-g8", "n2-mpi-g1", "nv18-clique8", "0-55,112-167"})
    EXPECT_TRUE(has(readme, part)) << part;
  EXPECT_TRUE(file(files, "n2.sbatch").executable);
  EXPECT_FALSE(file(files, "README.md").executable);
}

TEST(JobsScripts, SystemSettingsReachTheScripts) {
  SystemFile sys = load_system_file(gb::test::system_path("dgx-h100"));
  sys.slurm.gpu_request = GpuRequest::GpusPerNode;
  sys.slurm.partition = "batch";
  sys.slurm.account = "proj42";
  sys.slurm.modules = {"cuda/13.0", "openmpi/4.1"};
  sys.slurm.container_image = "nvcr.io#nvidia/gpubarrier:1";
  auto r = request("dgx-h100", "paper");
  const auto plan = gb::test::plan_with(r, sys, "runs:\n  - methods: host.mpi.barrier\n");
  const std::string s = jobs::render_job_script(plan, plan.scripts[0]);
  for (const char* part :
       {"#SBATCH --gpus-per-node=8\n", "#SBATCH --partition=batch\n", "#SBATCH --account=proj42\n",
        "module load cuda/13.0 openmpi/4.1\n", "'--container-image=nvcr.io#nvidia/gpubarrier:1'",
        "--container-mounts=/tmp/gb-jobs-unit/dgx-h100-paper:"})
    EXPECT_TRUE(has(s, part)) << part << "\n" << s;
  EXPECT_FALSE(has(s, "--gres"));
  // Flags override the file.
  r.partition = "debug";
  EXPECT_TRUE(has(jobs::render_job_script(gb::test::plan_with(r, sys,
                                                              "runs:\n  - methods: "
                                                              "host.mpi.barrier\n"),
                                          plan.scripts[0]),
                  "#SBATCH --partition=debug\n"));
}

TEST(JobsScripts, PlainScriptsRunMpirunPerGpuCount) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  r.scheduler = jobs::Scheduler::none;
  r.gpu_counts = {1, 2};
  const auto files = paper_files(r);
  const std::string s = file(files, "n1.sh").text;
  EXPECT_FALSE(has(s, "#SBATCH"));
  EXPECT_FALSE(has(s, "srun"));
  EXPECT_TRUE(has(s, "mpirun_args+=(--allow-run-as-root)"));
  EXPECT_TRUE(has(s,
                  "  mpirun \"${mpirun_args[@]}\" -np 2 --bind-to core:overload-allowed \\\n"
                  "  \"$JOBDIR/rank.sh\" ranks 0/1 0,112/1,113 -- \\\n"))
      << s;
  EXPECT_TRUE(has(file(files, "run-all.sh").text, "merge \"${csvs[@]}\""));
  EXPECT_THROW(file(files, "submit.sh"), std::runtime_error);
}

TEST(JobsScripts, StepSweepFilesParseBackAndCheck) {
  auto r = request("dgx-h100", "paper");
  for (const auto& f : paper_files(r)) {
    if (f.path.rfind("sweeps/", 0) != 0) continue;
    const SweepFile s = parse_sweep_text(f.text, f.path);
    EXPECT_EQ(s.name, "paper");
    EXPECT_EQ(s.time_budget_s, 0.5);
    EXPECT_FALSE(s.runs.empty()) << f.path;
    for (const auto& e : s.runs) EXPECT_FALSE(e.all_gpu_counts) << f.path;
  }
}

TEST(JobsScripts, SignalLeadShrinksForShortLimits) {
  EXPECT_EQ(jobs::signal_lead_s(3600), 120);
  EXPECT_EQ(jobs::signal_lead_s(600), 120);
  EXPECT_EQ(jobs::signal_lead_s(300), 75);
  EXPECT_EQ(jobs::signal_lead_s(60), 30);
}

TEST(JobsTemplates, EveryPlaceholderNeedsAValueAndEveryValueAPlaceholder) {
  EXPECT_THROW(jobs::render_template("rank.sh.in", {{"NOPE", "x"}}), Error);
  EXPECT_THROW(jobs::render_template("merge.sbatch.in", {}), Error);
  EXPECT_THROW(jobs::render_template("missing.in", {}), Error);
  // bash's "$@" and ${a[@]} are no placeholders.
  EXPECT_TRUE(has(jobs::render_rank_wrapper(), "exec \"$@\""));
}
