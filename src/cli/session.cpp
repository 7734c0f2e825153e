#include "cli/session.hpp"

#include <cstdio>
#include <memory>

#include "cli/context.hpp"
#include "core/errors.hpp"
#include "core/glob.hpp"
#include "core/registry.hpp"
#include "core/runner.hpp"
#include "io/console_table.hpp"
#include "io/csv_writer.hpp"
#include "io/json_writer.hpp"
#include "topology/probe.hpp"
#include "topology/topology_class.hpp"

namespace gb::cli {
namespace {

std::vector<Method*> pick(const std::vector<std::unique_ptr<Method>>& all,
                          const std::string& globs) {
  std::vector<std::string> names;
  for (const auto& m : all) names.emplace_back(m->name());
  const auto chosen = select_names(globs, names);
  std::vector<Method*> picked;
  for (const auto& m : all)
    if (std::find(chosen.begin(), chosen.end(), m->name()) != chosen.end())
      picked.push_back(m.get());
  return picked;
}

std::vector<AxisOverride> parse_overrides(const std::vector<std::string>& texts,
                                          const std::vector<Method*>& methods) {
  std::vector<AxisOverride> overrides;
  for (const auto& t : texts) {
    AxisOverride o = parse_axis(t);
    std::vector<std::string> known;
    for (Method* m : methods)
      for (const auto& a : m->axes())
        if (std::find(known.begin(), known.end(), a.name) == known.end()) known.push_back(a.name);
    if (std::find(known.begin(), known.end(), o.name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("--axis " + o.name + ": no selected method has this axis (their axes: " +
                       (list.empty() ? "none" : list) + ")");
    }
    overrides.push_back(std::move(o));
  }
  return overrides;
}

void validate_options(const RunOptions& o) {
  if (o.samples < 2) throw UsageError("--samples must be >= 2 (statistics need a spread)");
  if (o.time_budget_s <= 0) throw UsageError("--time-budget must be > 0 seconds");
  if (o.watchdog_s <= 0) throw UsageError("--watchdog must be > 0 seconds");
  if (o.rse_target <= 0) throw UsageError("--rse-target must be > 0 (e.g. 0.01 for 1%)");
  if (o.reps_lo < 1 || o.reps_hi <= o.reps_lo)
    throw UsageError("--reps-lo/--reps-hi: need 1 <= reps_lo < reps_hi");
}

// Rank 0 opens the file; every rank learns whether that worked, so all fail together.
std::unique_ptr<CsvWriter> open_csv(const Launch& launch, const std::string& path) {
  std::unique_ptr<CsvWriter> csv;
  std::string error;
  if (launch.is_root() && path != "none") {
    try {
      csv = std::make_unique<CsvWriter>(path);
    } catch (const UsageError& e) {
      error = e.what();
    }
  }
  if (launch.max(error.empty() ? 0.0 : 1.0) > 0)
    throw UsageError(error.empty() ? "rank 0 could not open the output file" : error);
  return csv;
}

}  // namespace

void add_session_options(CLI::App& cmd, SessionArgs& args) {
  cmd.add_option("--gpus", args.gpus,
                 "GPU indices, e.g. 0,1 (default: all visible; under MPI the local rank's GPU)")
      ->envname("GPUBARRIER_GPUS");
  cmd.add_option("--out", args.out,
                 "CSV file (default results/local/<host>-<timestamp>.csv; 'none' for no file)")
      ->envname("GPUBARRIER_OUT");
  cmd.add_option("--system", args.system,
                 "Machine type written to each row, e.g. dgx-h100 (default local)")
      ->envname("GPUBARRIER_SYSTEM")
      ->capture_default_str();
  cmd.add_option("--samples", args.options.samples, "Minimum samples per configuration")
      ->envname("GPUBARRIER_SAMPLES")
      ->capture_default_str();
  cmd.add_option("--time-budget", args.options.time_budget_s,
                 "Seconds per configuration before adaptive sampling gives up")
      ->envname("GPUBARRIER_TIME_BUDGET")
      ->capture_default_str();
  cmd.add_option("--rse-target", args.options.rse_target,
                 "Stop sampling once the relative standard error is below this")
      ->envname("GPUBARRIER_RSE_TARGET")
      ->capture_default_str();
  cmd.add_option("--watchdog", args.options.watchdog_s,
                 "Seconds a device spin loop waits before giving up (a timeout row, not a hang)")
      ->envname("GPUBARRIER_WATCHDOG")
      ->capture_default_str();
  cmd.add_option("--reps-lo", args.options.reps_lo, "Differential technique: R_lo")
      ->envname("GPUBARRIER_REPS_LO")
      ->capture_default_str();
  cmd.add_option("--reps-hi", args.options.reps_hi, "Differential technique: R_hi")
      ->envname("GPUBARRIER_REPS_HI")
      ->capture_default_str();
}

void execute_session(SessionArgs& args, const std::vector<PlanSpec>& specs,
                     const GlobalOptions& global) {
  validate_options(args.options);
  const auto all = Registry::instance().create_all();
  std::vector<RunPlan> plans;
  for (const auto& spec : specs) {
    RunPlan plan;
    plan.methods = pick(all, spec.methods);
    plan.overrides = parse_overrides(spec.axes, plan.methods);
    plans.push_back(std::move(plan));
  }

  // MPI only when mpirun/srun started us: a plain run never touches MPI.
  int argc = 0;
  char** argv = nullptr;
  const Launch launch = init_launch(&argc, &argv);
  struct Finalize {
    const Launch& l;
    ~Finalize() { finalize_launch(l); }
  } finalize{launch};

  RunContext ctx = make_context(launch, args.gpus);
  ctx.options = args.options;
  ctx.env.system = args.system;
  ctx.topology = std::make_shared<const topo::Topology>(topo::probe_local());
  const std::string run_id = make_run_id(ctx.env.host);
  if (args.out.empty())
    args.out = "results/local/" + ctx.env.host + "-" + run_id.substr(0, 16) + ".csv";
  const auto csv = open_csv(launch, args.out);

  ConsoleTable table(stdout);
  JsonWriter json(stdout);
  std::vector<ResultSink*> sinks;
  if (csv) sinks.push_back(csv.get());
  sinks.push_back(global.json ? static_cast<ResultSink*>(&json) : &table);

  RunTally tally;
  for (auto& plan : plans) {
    plan.run_id = run_id;
    plan.topology_class = topo::topology_class(*ctx.topology, ctx.gpus);
    tally += run_plan(ctx, plan, sinks);
  }
  if (!launch.is_root()) return;
  for (ResultSink* s : sinks) s->finish();
  std::fprintf(stderr, "%d rows: %d ok, %d skipped, %d failed, %d timeout, %d unverified%s%s\n",
               tally.total(), tally.ok, tally.skipped, tally.failed, tally.timeout,
               tally.unverified, csv ? "; CSV: " : "", csv ? csv->path().c_str() : "");
}

}  // namespace gb::cli
