// The job generator's plan for dgx-h100 and the paper sweep: which steps, how they are batched,
// which GPUs and CPUs each one gets, and which requests are refused and why.
#include <gtest/gtest.h>

#include <algorithm>

#include "errors/errors.hpp"
#include "jobs/estimate.hpp"
#include "test_jobs_helpers.hpp"

using namespace gb;
using gb::test::catalogue;
using gb::test::request;

namespace {

std::vector<std::string> ids(const jobs::Script& s) {
  std::vector<std::string> out;
  for (const auto& step : s.steps) out.push_back(step.id);
  return out;
}

const jobs::Step& step(const jobs::Plan& plan, const std::string& id) {
  for (const auto& s : plan.scripts)
    for (const auto& st : s.steps)
      if (st.id == id) return st;
  throw std::runtime_error("no step " + id);
}

bool runs(const jobs::Step& s, const std::string& method) {
  return std::any_of(s.sweep.runs.begin(), s.sweep.runs.end(), [&](const SweepEntry& e) {
    return ("," + e.methods + ",").find("," + method + ",") != std::string::npos;
  });
}

std::string refusal(const jobs::JobRequest& r) {
  try {
    jobs::make_plan(r, catalogue());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(JobsPlan, OneScriptPerNodeCountWithEveryGpuCountAsSteps) {
  auto r = request("dgx-h100", "paper");
  r.nodes = {1, 2};
  const jobs::Plan plan = jobs::make_plan(r, catalogue());
  ASSERT_EQ(plan.scripts.size(), 2u);
  EXPECT_EQ(plan.scripts[0].name, "n1");
  EXPECT_EQ(plan.scripts[1].name, "n2");
  std::vector<std::string> expected{"n1-single"};
  for (const char* mode : {"threads", "mpi"})
    for (int k = 1; k <= 8; ++k)
      expected.push_back(std::string("n1-") + mode + "-g" + std::to_string(k));
  EXPECT_EQ(ids(plan.scripts[0]), expected);
  // Across nodes only host methods among ranks and the multi-node level; one rank per node is
  // already a barrier of two.
  for (const auto& s : plan.scripts[1].steps) {
    EXPECT_EQ(s.mode, Mode::mpi) << s.id;
    EXPECT_EQ(s.nodes, 2);
    EXPECT_TRUE(runs(s, "host.mpi.barrier")) << s.id;
    EXPECT_TRUE(runs(s, "multinode.hierarchical")) << s.id;
    EXPECT_FALSE(runs(s, "multigpu.device.push")) << s.id;
    EXPECT_FALSE(runs(s, "host.nccl.allreduce")) << s.id;
  }
  EXPECT_EQ(plan.scripts[1].steps.front().id, "n2-mpi-g1");
  const bool noted = std::any_of(plan.notes.begin(), plan.notes.end(), [](const std::string& n) {
    return n.find("2 nodes: left out") != std::string::npos &&
           n.find("device-side barrier") != std::string::npos;
  });
  EXPECT_TRUE(noted);
}

TEST(JobsPlan, SplitsLaunchModesByMethod) {
  const jobs::Plan plan = jobs::make_plan(request("dgx-h100", "paper"), catalogue());
  const auto& single = step(plan, "n1-single");
  EXPECT_TRUE(runs(single, "gpu.grid.cg"));
  EXPECT_TRUE(runs(single, "host.omp.barrier"));
  EXPECT_FALSE(runs(single, "multigpu.device.push"));
  const auto& threads = step(plan, "n1-threads-g4");
  EXPECT_TRUE(runs(threads, "multigpu.device.push"));
  EXPECT_TRUE(runs(threads, "host.omp.gpu-barrier"));
  EXPECT_TRUE(runs(threads, "multigpu.floor.signal"));
  EXPECT_FALSE(runs(threads, "host.mpi.barrier"));
  const auto& mpi = step(plan, "n1-mpi-g4");
  EXPECT_TRUE(runs(mpi, "multigpu.device.push"));
  EXPECT_TRUE(runs(mpi, "host.mpi.barrier"));
  EXPECT_TRUE(runs(mpi, "host.mpi.gpu-barrier"));
  EXPECT_FALSE(runs(mpi, "host.omp.gpu-barrier"));
  // One rank is no barrier; a flag between GPU pairs needs two GPUs.
  EXPECT_FALSE(runs(step(plan, "n1-mpi-g1"), "host.mpi.barrier"));
  EXPECT_FALSE(runs(step(plan, "n1-threads-g1"), "multigpu.floor.signal"));
  // gpu_count is left to the step's GPUs (0: every GPU given).
  for (const auto& e : threads.sweep.runs)
    for (const auto& a : e.axes) EXPECT_EQ(a.rfind("gpu_count=", 0), std::string::npos) << a;
}

TEST(JobsPlan, SubsetsComeFromTheTopologyAndBindToLocalCpus) {
  auto r = request("dgx-h100", "paper");
  r.subsets = {jobs::Subset::best, jobs::Subset::worst};
  const jobs::Plan plan = jobs::make_plan(r, catalogue());
  const auto& best = step(plan, "n1-mpi-g2-best");
  const auto& worst = step(plan, "n1-mpi-g2-worst");
  // NVSwitch everywhere: the PCIe tree decides; GPUs 0-3 hang off socket 0, 4-7 off socket 1.
  EXPECT_EQ(best.gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(worst.gpus, (std::vector<int>{0, 4}));
  // Each rank one core (and its sibling) of its GPU's NUMA node.
  EXPECT_EQ(worst.cpus, (std::vector<std::string>{"0,112", "56,168"}));
  EXPECT_EQ(step(plan, "n1-threads-g2-worst").cpus, (std::vector<std::string>{"0-223"}));
  // Where best and worst are the same GPUs, one step.
  EXPECT_NO_THROW(step(plan, "n1-mpi-g8-best"));
  EXPECT_THROW(step(plan, "n1-mpi-g8-worst"), std::runtime_error);
  EXPECT_TRUE(plan.exclusive);
  EXPECT_EQ(plan.scripts[0].gpus_per_node, 8);
}

TEST(JobsPlan, SubsetsWidenANonExclusiveSystemAndSayWhy) {
  SystemFile sys = load_system_file(gb::test::system_path("dgx-h100"));
  sys.slurm.exclusive = false;
  auto r = request("dgx-h100", "paper");
  const char* sweep = "runs:\n  - methods: multigpu.device.push\n    axes: {gpu_count: [2]}\n";
  const jobs::Plan shared = gb::test::plan_with(r, sys, sweep);
  EXPECT_FALSE(shared.exclusive);
  EXPECT_EQ(shared.scripts[0].gpus_per_node, 2);  // only what the widest step uses
  r.subsets = {jobs::Subset::worst};
  const jobs::Plan whole = gb::test::plan_with(r, sys, sweep);
  EXPECT_TRUE(whole.exclusive);
  EXPECT_EQ(whole.scripts[0].gpus_per_node, 8);
  EXPECT_TRUE(std::any_of(whole.notes.begin(), whole.notes.end(), [](const std::string& n) {
    return n.find("--exclusive") != std::string::npos;
  }));
}

TEST(JobsPlan, OneJobPerPoint) {
  auto r = request("dgx-h100", "multi-gpu-mpi");
  r.one_job_per_point = true;
  r.gpu_counts = {2, 4};
  const jobs::Plan plan = jobs::make_plan(r, catalogue());
  std::vector<std::string> names;
  for (const auto& s : plan.scripts) names.push_back(s.name);
  // The sweep's multigpu.* run in both launch modes: the generator splits them.
  EXPECT_EQ(names,
            (std::vector<std::string>{"n1-threads-g2", "n1-threads-g4", "n1-mpi-g2", "n1-mpi-g4"}));
  for (const auto& s : plan.scripts) EXPECT_EQ(s.steps.size(), 1u);
}

TEST(JobsPlan, TimeLimitsAreEstimatedFromPointsAndBudget) {
  const jobs::Plan plan = jobs::make_plan(request("dgx-h100", "paper"), catalogue());
  const auto& script = plan.scripts[0];
  double seconds = 0;
  for (const auto& s : script.steps) {
    EXPECT_GT(s.points, 0) << s.id;
    const long budgets = jobs::count_budgets(s.sweep, catalogue());
    EXPECT_GE(budgets, s.points) << s.id;
    EXPECT_DOUBLE_EQ(s.seconds, jobs::step_seconds(s.points, budgets, 0.5)) << s.id;  // paper
    seconds += s.seconds;
  }
  EXPECT_EQ(script.time_limit_s, jobs::time_limit_s(seconds));
  EXPECT_GE(script.time_limit_s, seconds);
  EXPECT_EQ(script.time_limit_s % 300, 0);
  EXPECT_TRUE(plan.time_estimated);
  EXPECT_NE(plan.estimate.find("0.5 s time budget"), std::string::npos) << plan.estimate;
  // Host methods write a loop row and a per-step row, each up to the budget: counted twice.
  long points = 0, budgets = 0;
  for (const auto& sc : plan.scripts)
    for (const auto& s : sc.steps) {
      points += s.points;
      budgets += jobs::count_budgets(s.sweep, catalogue());
    }
  EXPECT_GT(budgets, points) << "the paper sweep has host methods";

  auto r = request("dgx-h100", "paper");
  r.time_limit_s = 7200;
  const jobs::Plan given = jobs::make_plan(r, catalogue());
  EXPECT_EQ(given.scripts[0].time_limit_s, 7200);
  EXPECT_FALSE(given.time_estimated);
}

TEST(JobsPlan, GpuCountAllIsOneToGpusPerNode) {
  auto r = request("gb200-nvl72", "paper");
  const jobs::Plan plan = jobs::make_plan(r, catalogue());
  std::vector<std::string> mpi;
  for (const auto& s : plan.scripts[0].steps)
    if (s.mode == Mode::mpi) mpi.push_back(s.id);
  EXPECT_EQ(mpi, (std::vector<std::string>{"n1-mpi-g1", "n1-mpi-g2", "n1-mpi-g3", "n1-mpi-g4"}));
  // multi-gpu.yaml's 1:8 is beyond a 4-GPU tray: the rest is left out, and said.
  const jobs::Plan tray = jobs::make_plan(request("gb200-nvl72", "multi-gpu"), catalogue());
  EXPECT_TRUE(std::any_of(tray.notes.begin(), tray.notes.end(), [](const std::string& n) {
    return n.find("GPU counts 5,6,7,8 of the sweep are beyond") != std::string::npos;
  }));
}

TEST(JobsPlan, RefusesImpossibleRequestsWithTheReason) {
  auto r = request("dgx-h100", "paper");
  r.gpu_counts = {16};
  EXPECT_NE(refusal(r).find("more GPUs than dgx-h100 has (8 per node)"), std::string::npos)
      << refusal(r);

  try {
    jobs::parse_subsets({"best", "bset"});
    ADD_FAILURE() << "--subsets bset was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--subsets bset: expected best or worst (the best- and worst-connected GPUs of each "
              "count, from the topology); did you mean 'best'?");
  }
  EXPECT_EQ(jobs::parse_subsets({"worst", "best"}),
            (std::vector<jobs::Subset>{jobs::Subset::worst, jobs::Subset::best}));

  r = request("dgx-h100", "multi-gpu");
  r.nodes = {2};
  EXPECT_NE(refusal(r).find("nothing of"), std::string::npos) << refusal(r);
  EXPECT_NE(refusal(r).find("device-side barrier: its peers are GPUs of one node"),
            std::string::npos)
      << refusal(r);

  r = request("local-slurm", "paper");
  r.nodes = {3};
  EXPECT_NE(refusal(r).find("local-slurm has 2 nodes"), std::string::npos) << refusal(r);

  r = request("dgx-h100", "paper");
  r.scheduler = jobs::Scheduler::none;
  r.nodes = {2};
  EXPECT_NE(refusal(r).find("several nodes need --scheduler slurm"), std::string::npos)
      << refusal(r);

  r = request("dgx-h100", "paper");
  r.scheduler = jobs::Scheduler::none;
  r.container_image = "nvcr.io/x";
  EXPECT_NE(refusal(r).find("--container-image applies to Slurm jobs"), std::string::npos)
      << refusal(r);

  r = request("local-slurm", "single-gpu");
  EXPECT_NE(refusal(r).find("fake gres GPUs"), std::string::npos) << refusal(r);
}

TEST(JobsPlan, RefusesAnMpiOnlyMethodOnOneGpuWithoutScheduler) {
  auto r = request("dgx-h100", "paper");
  r.scheduler = jobs::Scheduler::none;
  r.gpu_counts = {1};
  SystemFile sys = load_system_file(gb::test::system_path("dgx-h100"));
  try {
    gb::test::plan_with(r, sys, "runs:\n  - methods: host.mpi.barrier\n");
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("host.mpi.barrier (a barrier among ranks needs 2 or more"),
              std::string::npos)
        << e.what();
  }
}

// Without GPUs to give, a step's count is of ranks, and its name says so: its rows say ranks=2,
// gpu_count=0, which a name with "g2" would contradict.
TEST(JobsPlan, FakeGpusRunCpuOnlyMethodsWithoutSelectingGpus) {
  auto r = request("local-slurm", "paper");
  r.nodes = {1, 2};
  r.gpu_counts = {1, 2, 3};
  const jobs::Plan plan = jobs::make_plan(r, catalogue());
  EXPECT_FALSE(plan.select_gpus);
  std::vector<std::string> all;
  for (const auto& s : plan.scripts)
    for (const auto& id : ids(s)) all.push_back(id);
  EXPECT_EQ(all, (std::vector<std::string>{"n1-single", "n1-mpi-r2", "n1-mpi-r3", "n2-mpi-r1",
                                           "n2-mpi-r2", "n2-mpi-r3"}));
  EXPECT_TRUE(plan.scripts[0].overcommit);  // 3 ranks on the 2 CPUs of a CI node
}
