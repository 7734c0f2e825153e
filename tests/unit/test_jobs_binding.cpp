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
  EXPECT_TRUE(has(srun, "--ntasks=1 --mpi=none --cpu-bind=none")) << srun;
  // rank.sh still takes each rank onto its GPU's CPUs.
  const auto cpus = rank_cpus(srun);
  ASSERT_FALSE(cpus.empty()) << srun;
  for (const auto& c : cpus) EXPECT_TRUE(has(c, "0-55,112-167")) << c;
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
