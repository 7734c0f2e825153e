// Where the generated scripts put the ranks and threads that spin in host barriers: bound as the
// reference tools are run unless the request says --bind none (jobs/request.hpp Bind,
// docs/cluster.md "CPU binding").
#include <gtest/gtest.h>

#include <regex>

#include "io/system_file.hpp"
#include "jobs/scripts.hpp"
#include "test_jobs_helpers.hpp"
#include "text_contains.hpp"

using namespace gb;
using gb::test::request;

namespace {

using gb::test::has;

// The first script of a plan of the multi-GPU mpi sweep on dgx-h100 (its system file edited by
// `edit`).
template <class Edit>
std::string script_of(const jobs::JobRequest& r, Edit edit) {
  SystemFile sys = load_system_file(gb::test::system_path("dgx-h100"));
  edit(sys);
  const auto plan = gb::test::plan_with(
      r, sys, "runs:\n  - methods: [host.mpi.gpu-barrier, host.omp.barrier]\n");
  return jobs::render_job_script(plan, plan.scripts[0]);
}
std::string script_of(const jobs::JobRequest& r) {
  return script_of(r, [](SystemFile&) {});
}

// rank.sh's CPUS argument of every rank step ("-" when nothing is bound).
std::vector<std::string> rank_cpus(const std::string& script) {
  static const std::regex call(R"re("\$JOBDIR/rank.sh" ranks \S+ (\S+) --)re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(script.begin(), script.end(), call);
       it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST(JobsBinding, RanksAreBoundToCoresByDefault) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  const std::string srun = script_of(r);
  EXPECT_TRUE(has(srun, "--mpi=pmix --cpu-bind=cores")) << srun;
  EXPECT_FALSE(has(srun, "--mpi=pmix --cpu-bind=none")) << srun;
  EXPECT_FALSE(has(srun, "OMP_PROC_BIND")) << srun;
  // One process (single, threads): the CPUs of its step; gpubarrier pins its OpenMP team there.
  EXPECT_TRUE(has(srun, "--ntasks=1 --mpi=none --cpus-per-task=112 --cpu-bind=none")) << srun;
  // rank.sh still takes each rank onto a core of its GPU's CPUs.
  const auto cpus = rank_cpus(srun);
  ASSERT_FALSE(cpus.empty()) << srun;
  for (const auto& c : cpus) EXPECT_TRUE(has(c, "0,112")) << c;
  // A system whose Slurm launcher is mpirun, and the plain scripts' mpirun.
  const std::string mpirun =
      script_of(r, [](SystemFile& sys) { sys.slurm.launcher = Launcher::Mpirun; });
  EXPECT_TRUE(has(mpirun, "--bind-to core:overload-allowed")) << mpirun;
  EXPECT_FALSE(has(mpirun, "--bind-to none")) << mpirun;
  r.scheduler = jobs::Scheduler::none;
  const std::string plain = script_of(r);
  EXPECT_TRUE(has(plain, " --bind-to core:overload-allowed \\\n")) << plain;
  EXPECT_FALSE(has(plain, "--bind-to none")) << plain;
}

TEST(JobsBinding, BindNoneBindsNothing) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  r.bind = jobs::Bind::none;
  const std::string srun = script_of(r);
  EXPECT_TRUE(has(srun, "--mpi=pmix --cpu-bind=none")) << srun;
  EXPECT_FALSE(has(srun, "--cpu-bind=cores")) << srun;
  const auto cpus = rank_cpus(srun);
  ASSERT_FALSE(cpus.empty()) << srun;
  for (const auto& c : cpus) EXPECT_EQ(c, "-") << srun;
  // gpubarrier leaves its OpenMP threads where the OpenMP runtime puts them.
  EXPECT_TRUE(has(srun, "export OMP_PROC_BIND=false\n")) << srun;
  const std::string mpirun =
      script_of(r, [](SystemFile& sys) { sys.slurm.launcher = Launcher::Mpirun; });
  EXPECT_TRUE(has(mpirun, "--bind-to none ")) << mpirun;
  EXPECT_TRUE(has(mpirun, " -x OMP_PROC_BIND")) << mpirun;
  r.scheduler = jobs::Scheduler::none;
  const std::string plain = script_of(r);
  EXPECT_TRUE(has(plain, " --bind-to none \\\n")) << plain;
  EXPECT_FALSE(has(plain, "--bind-to core")) << plain;
  // A system file that sets OMP_PROC_BIND keeps its own.
  r.scheduler = jobs::Scheduler::slurm;
  const std::string own = script_of(r, [](SystemFile& sys) {
    sys.env.emplace_back("OMP_PROC_BIND", "spread");
  });
  EXPECT_TRUE(has(own, "export OMP_PROC_BIND=spread\n")) << own;
  EXPECT_FALSE(has(own, "OMP_PROC_BIND=false")) << own;
}

namespace {

// Each local rank's CPUs in the mpi step of `gpus` GPUs, as the plan computes them; the script
// hands them to rank.sh as they are.
std::vector<std::string> masks_of(const std::string& system, int gpus,
                                  void (*edit)(SystemFile&) = nullptr) {
  auto r = request(system, "multi-gpu-mpi");
  r.gpu_counts = {gpus};
  SystemFile sys = load_system_file(gb::test::system_path(system));
  if (edit) edit(sys);
  const auto plan = gb::test::plan_with(r, sys, "runs:\n  - methods: host.mpi.gpu-barrier\n");
  // The script's words, its continuation lines joined.
  std::string script = jobs::render_job_script(plan, plan.scripts[0]);
  script = std::regex_replace(script, std::regex(" \\\\\n *"), " ");
  for (const auto& step : plan.scripts[0].steps) {
    if (step.mode != Mode::mpi) continue;
    std::string all;
    for (const auto& c : step.cpus) all += (all.empty() ? "" : "/") + c;
    EXPECT_TRUE(has(script, " ranks ") && has(script, " " + all + " --")) << all << "\n" << script;
    return step.cpus;
  }
  ADD_FAILURE() << "no mpi step";
  return {};
}

using Masks = std::vector<std::string>;

// A one-socket machine: 16 cores without SMT (one run of CPUs), every GPU on NUMA node 0.
void one_socket(SystemFile& sys) {
  std::vector<int> cpus;
  for (int c = 0; c < 16; ++c) cpus.push_back(c);
  sys.wiring.numa_nodes = {{0, cpus}};
  for (auto& gpu : sys.wiring.gpus) gpu.numa = 0;
  for (auto& nic : sys.wiring.nics) nic.pcie.numa = 0;
}

}  // namespace

// Each rank spins on one core of its GPU's NUMA node and that core's hyperthread sibling at most,
// no two ranks on one core: a member that shares or migrates between cores measures the
// scheduler. Siblings: where a NUMA node's CPUs are two equal runs half the node's CPUs apart.
TEST(JobsBinding, EachRankOneCoreOfItsGpusNumaNode) {
  EXPECT_EQ(masks_of("dgx-h100", 4), (Masks{"0,112", "1,113", "2,114", "3,115"}));
  EXPECT_EQ(masks_of("dgx-h100", 8), (Masks{"0,112", "1,113", "2,114", "3,115", "56,168",
                                            "57,169", "58,170", "59,171"}));
  // NPS4: GPU pairs on NUMA nodes 3, 1, 7, 5.
  EXPECT_EQ(masks_of("dgx-a100", 8), (Masks{"48,176", "49,177", "16,144", "17,145", "112,240",
                                            "113,241", "80,208", "81,209"}));
  EXPECT_EQ(masks_of("dgx-h100", 4, one_socket), (Masks{"0", "1", "2", "3"}));
}

// The script says how it binds: in its comments, per step.
TEST(JobsBinding, ScriptStatesTheBinding) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  r.gpu_counts = {2};
  const std::string script = script_of(r);
  EXPECT_TRUE(has(script, "each rank on one core of its GPU's NUMA node and its hyperthread "
                          "sibling (CPUs 0,112 / 1,113)"))
      << script;
  EXPECT_TRUE(has(script, "one process on CPUs 0-55,112-167")) << script;
}

// A step of one process (single, threads) asks srun for the CPUs it binds to, explicitly: a step
// does not inherit the job's --cpus-per-task on every Slurm.
TEST(JobsBinding, OneProcessStepsPassCpusPerTask) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  r.gpu_counts = {2};
  const std::string script = script_of(r);
  EXPECT_TRUE(has(script, "--ntasks=1 --mpi=none --cpus-per-task=112 --cpu-bind=none")) << script;
  EXPECT_FALSE(has(script, "--ntasks=1 --mpi=none --cpu-bind")) << script;
}
