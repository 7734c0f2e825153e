// The session's steps that decide without measuring: what a session is asked (settings, plans,
// narrowing, mistakes kept for every rank to agree on), the sweep file's defaults, the run id,
// the CSV path, the isolation under mpirun, an isolated child's command line and the summary.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/default_out.hpp"
#include "app/session_options.hpp"
#include "app/session_request.hpp"
#include "app/session_steps.hpp"
#include "core/registry.hpp"
#include "io/sweep_file.hpp"
#include "text_contains.hpp"

using namespace gb;
using namespace gb::cli;
using gb::test::has;

namespace {

SpecReader reading(std::vector<PlanSpec> specs) {
  return [specs](const SessionArgs& given) { return Asked{given, specs}; };
}

std::vector<std::string> method_names(const RunPlan& plan) {
  std::vector<std::string> names;
  for (const Method* m : plan.methods) names.emplace_back(m->name());
  return names;
}

Launch mpi_rank(int rank) {
  Launch launch;
  launch.under_mpi = true;
  launch.rank = rank;
  launch.size = 2;
  return launch;
}

}  // namespace

TEST(SessionSteps, ReadRequestMakesThePlansOfTheSpecs) {
  const auto all = Registry::instance().create_all();
  const Request r = read_request(
      {}, reading({{"host.omp.barrier", {"group_size=2,4"}}, {"host.mpi.barrier", {}}}), {}, all);
  EXPECT_EQ(r.mistake, "");
  ASSERT_EQ(r.plans.size(), 2u);
  EXPECT_EQ(method_names(r.plans[0]), std::vector<std::string>{"host.omp.barrier"});
  ASSERT_EQ(r.plans[0].overrides.size(), 1u);
  EXPECT_EQ(r.plans[0].overrides[0].name, "group_size");
  EXPECT_EQ(method_names(r.plans[1]), std::vector<std::string>{"host.mpi.barrier"});
  EXPECT_TRUE(r.plans[1].overrides.empty());
}

TEST(SessionSteps, ReadRequestKeepsTheSettingsTheReaderReturns) {
  const auto all = Registry::instance().create_all();
  SessionArgs given;
  given.options.samples = 20;
  const SpecReader reader = [](const SessionArgs& settings) {
    Asked asked{settings, {{"host.omp.barrier", {}}}};
    asked.args.options.samples = 7;
    return asked;
  };
  const Request r = read_request(given, reader, {}, all);
  EXPECT_EQ(r.mistake, "");
  EXPECT_EQ(r.args.options.samples, 7);
  EXPECT_EQ(given.options.samples, 20);  // the command line's settings are not changed
}

// Bad input becomes the mistake, not a throw: every rank must reach MPI's start to agree on it.
TEST(SessionSteps, ReadRequestKeepsTheMistakeForEveryRankToAgreeOn) {
  const auto all = Registry::instance().create_all();
  const Request axis = read_request({}, reading({{"host.omp.barrier", {"group_sise=2"}}}), {}, all);
  EXPECT_TRUE(has(axis.mistake, "--axis group_sise: no selected method has this axis"))
      << axis.mistake;
  EXPECT_TRUE(has(axis.mistake, "did you mean 'group_size'?")) << axis.mistake;

  SessionArgs bad;
  bad.point_limit = 0;
  EXPECT_EQ(read_request(bad, reading({{"host.omp.barrier", {}}}), {}, all).mistake,
            "--point-limit must be >= 1");

  const SpecReader throws = [](const SessionArgs&) -> Asked { throw UsageError("no such file"); };
  const Request unread = read_request({}, throws, {}, all);
  EXPECT_EQ(unread.mistake, "no such file");
  EXPECT_TRUE(unread.plans.empty());

  SessionArgs few;
  few.point_limit = 1;
  EXPECT_TRUE(
      has(read_request(few, reading({{"host.omp.barrier", {"group_size=2,4"}}}), {}, all).mistake,
          "this run asks for 2 points (the most for one method: host.omp.barrier, 2), "
          "over --point-limit 1"));
}

TEST(SessionSteps, NarrowingKeepsMatchingMethodsAndReplacesAxesWhereTheyAre) {
  const auto all = Registry::instance().create_all();
  const std::vector<PlanSpec> specs{{"host.omp.barrier", {}}, {"host.mpi.barrier", {}}};
  const Request r =
      read_request({}, reading(specs), {.methods = "host.omp.*", .axes = {"group_size=8"}}, all);
  EXPECT_EQ(r.mistake, "");
  ASSERT_EQ(r.plans.size(), 1u);  // the entry left without methods is dropped
  EXPECT_EQ(method_names(r.plans[0]), std::vector<std::string>{"host.omp.barrier"});
  ASSERT_EQ(r.plans[0].overrides.size(), 1u);
  EXPECT_EQ(r.plans[0].overrides[0].name, "group_size");

  const Request twice =
      read_request({}, reading(specs), {.axes = {"group_size=2", "group_size=4"}}, all);
  EXPECT_TRUE(has(twice.mistake, "--axis group_size is given twice")) << twice.mistake;
}

TEST(SessionSteps, SweepFileDefaultsApplyWhereTheCommandLineGaveNone) {
  const SweepFile sweep = parse_sweep_text(
      "samples: 5\ntime_budget: 1.5\nrse_target: 0.02\npoint_timeout: 30\n"
      "runs:\n  - methods: host.omp.barrier\n    axes: {group_size: [2]}\n",
      "s.yaml");
  SessionArgs args;
  args.options.samples = 40;
  const SessionArgs from_file = with_file_defaults(args, sweep, {});
  EXPECT_EQ(from_file.options.samples, 5);
  EXPECT_DOUBLE_EQ(from_file.options.time_budget_s, 1.5);
  EXPECT_DOUBLE_EQ(from_file.options.rse_target, 0.02);
  EXPECT_DOUBLE_EQ(from_file.point_timeout_s, 30);

  const SessionArgs given =
      with_file_defaults(args, sweep, {.samples = true, .point_timeout = true});
  EXPECT_EQ(given.options.samples, 40);
  EXPECT_DOUBLE_EQ(given.point_timeout_s, SessionArgs{}.point_timeout_s);
  EXPECT_DOUBLE_EQ(given.options.time_budget_s, 1.5);

  const std::vector<PlanSpec> specs = specs_of(sweep);
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].methods, "host.omp.barrier");
  EXPECT_EQ(specs[0].axes.size(), 1u);
}

TEST(SessionSteps, RunIdIsTheParentsForAChild) {
  SessionArgs child;
  child.run_id = "20261207T000000Z-parent-1";
  EXPECT_EQ(session_run_id(child, "host"), child.run_id);
  EXPECT_TRUE(has(session_run_id({}, "myhost"), "-myhost-"));
}

TEST(SessionSteps, StampedPlansCarryTheRunIdAndTopologyClass) {
  const auto plans = stamped(std::vector<RunPlan>(2), "id", "nv18-clique2");
  for (const RunPlan& p : plans) {
    EXPECT_EQ(p.run_id, "id");
    EXPECT_EQ(p.topology_class, "nv18-clique2");
  }
}

TEST(SessionSteps, AnOutGivenIsKeptAndNoneIsNoCsv) {
  EXPECT_EQ(resolve_out("x.csv", Launch{}, "host", "id"), std::optional<std::string>("x.csv"));
  EXPECT_EQ(resolve_out("none", Launch{}, "host", "id"), std::nullopt);
  EXPECT_EQ(csv_path_of("none"), std::nullopt);
  EXPECT_EQ(csv_path_of("None"), std::optional<std::string>("None"));  // a file's name
}

TEST(SessionSteps, IsolationDoesNotApplyUnderMpi) {
  EXPECT_EQ(choose_isolation(Isolation::method, false, Launch{}), Isolation::method);
  EXPECT_EQ(choose_isolation(Isolation::point, true, Launch{}), Isolation::point);
  EXPECT_EQ(choose_isolation(Isolation::none, true, mpi_rank(0)), Isolation::none);
  EXPECT_EQ(choose_isolation(Isolation::method, false, mpi_rank(0)), Isolation::none);
  testing::internal::CaptureStderr();
  EXPECT_EQ(choose_isolation(Isolation::point, true, mpi_rank(1)), Isolation::none);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // only rank 0 notes it
  testing::internal::CaptureStderr();
  EXPECT_EQ(choose_isolation(Isolation::point, true, mpi_rank(0)), Isolation::none);
  EXPECT_TRUE(has(testing::internal::GetCapturedStderr(),
                  "--isolate point does not apply under mpirun/srun"));
}

TEST(SessionSteps, ChildCommandRepeatsTheSettingsExactly) {
  SessionArgs args;
  args.system = "dgx-h100";
  args.options.time_budget_s = 0.1;
  GlobalOptions global;
  global.log_level = "info";
  const auto cmd = child_command("/bin/gb", args, global, "rid");
  const std::vector<std::string> head{"/bin/gb", "-v",        "info", "run",      "--out",
                                      "none",    "--isolate", "none", "--system", "dgx-h100"};
  ASSERT_GE(cmd.size(), head.size());
  EXPECT_EQ(std::vector<std::string>(cmd.begin(), cmd.begin() + head.size()), head);
  const auto after = [&cmd](const std::string& flag) {
    for (std::size_t i = 0; i + 1 < cmd.size(); ++i)
      if (cmd[i] == flag) return cmd[i + 1];
    return std::string("(absent)");
  };
  EXPECT_EQ(after("--time-budget"), "0.10000000000000001");
  EXPECT_EQ(after("--run-id"), "rid");
  EXPECT_EQ(after("--child-fd"), "3");
  EXPECT_EQ(after("--gpus"), "(absent)");
  args.gpus = "0,1";
  EXPECT_EQ(child_command("/bin/gb", args, global, "rid").back(), "0,1");
}

TEST(SessionSteps, SummaryLineNamesTheCsvWhenThereIsOne) {
  RunTally t;
  t.ok = 3;
  t.skipped = 1;
  EXPECT_EQ(summary_line(t, ""), "4 rows: 3 ok, 1 skipped, 0 failed, 0 timeout, 0 unverified");
  EXPECT_EQ(summary_line(t, "a.csv"),
            "4 rows: 3 ok, 1 skipped, 0 failed, 0 timeout, 0 unverified; CSV: a.csv");
}
