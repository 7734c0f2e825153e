// `gpubarrier run`: measure the selected methods over their axes; rows go to a CSV file (flushed
// one by one), a console table or JSON.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
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

struct RunArgs {
  std::string methods = "*";
  std::string gpus;
  std::vector<std::string> axes;
  std::string out;
  std::string system = "local";
  RunOptions options;
};

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
    std::string known;
    bool found = false;
    for (Method* m : methods)
      for (const auto& a : m->axes()) {
        found |= a.name == o.name;
        if (known.find(a.name) == std::string::npos) known += (known.empty() ? "" : ", ") + a.name;
      }
    if (!found)
      throw UsageError("--axis " + o.name + ": no selected method has this axis (their axes: " +
                       (known.empty() ? "none" : known) + ")");
    overrides.push_back(std::move(o));
  }
  return overrides;
}

void validate_options(const RunOptions& o) {
  if (o.samples < 2) throw UsageError("--samples must be >= 2 (statistics need a spread)");
  if (o.time_budget_s <= 0) throw UsageError("--time-budget must be > 0 seconds");
  if (o.reps_lo < 1 || o.reps_hi <= o.reps_lo)
    throw UsageError("--reps-lo/--reps-hi: need 1 <= reps_lo < reps_hi");
}

void execute(RunArgs& args, GlobalOptions& global) {
  validate_options(args.options);
  const auto all = Registry::instance().create_all();
  const auto methods = pick(all, args.methods);
  const auto overrides = parse_overrides(args.axes, methods);

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

  RunPlan plan;
  plan.methods = methods;
  plan.overrides = overrides;
  plan.run_id = make_run_id(ctx.env.host);
  ctx.topology = std::make_shared<const topo::Topology>(topo::probe_local());
  plan.topology_class = topo::topology_class(*ctx.topology, ctx.gpus);

  if (args.out.empty())
    args.out = "results/local/" + ctx.env.host + "-" + plan.run_id.substr(0, 15) + ".csv";
  std::unique_ptr<CsvWriter> csv;
  std::string open_error;
  if (launch.is_root() && args.out != "none") {
    try {
      csv = std::make_unique<CsvWriter>(args.out);
    } catch (const UsageError& e) {
      open_error = e.what();
    }
  }
  if (launch.max(open_error.empty() ? 0.0 : 1.0) > 0)
    throw UsageError(open_error.empty() ? "rank 0 could not open the output file" : open_error);

  ConsoleTable table(global.json ? stderr : stdout);
  JsonWriter json(stdout);
  std::vector<ResultSink*> sinks;
  if (csv) sinks.push_back(csv.get());
  sinks.push_back(global.json ? static_cast<ResultSink*>(&json) : &table);

  const RunTally tally = run_plan(ctx, plan, sinks);
  if (launch.is_root()) {
    std::fprintf(stderr, "%d rows: %d ok, %d skipped, %d failed, %d timeout, %d unverified%s%s\n",
                 tally.total(), tally.ok, tally.skipped, tally.failed, tally.timeout,
                 tally.unverified, csv ? "; CSV: " : "", csv ? csv->path().c_str() : "");
  }
}

}  // namespace

void add_run_command(CLI::App& app, GlobalOptions& global) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run",
      "Measure methods over their axes. Under mpirun/srun MPI is initialised and methods that\n"
      "need ranks run on all of them; rows are written by rank 0.\n"
      "Examples:\n"
      "  gpubarrier run --methods 'gpu.grid.*' --axis blocks_per_sm=1,2 --axis "
      "threads_per_block=128\n"
      "  mpirun -np 2 gpubarrier run --methods host.mpi.barrier --out mpi.csv");
  cmd->add_option("--methods", args->methods, "Comma-separated globs of method names (see `list`)")
      ->envname("GPUBARRIER_METHODS")
      ->capture_default_str();
  cmd->add_option("--gpus", args->gpus,
                  "GPU indices, e.g. 0,1 (default: all visible; under MPI the local rank's GPU)")
      ->envname("GPUBARRIER_GPUS");
  cmd->add_option(
      "--axis", args->axes,
      "Replace an axis' values: name=v1,v2 | name=first:last:step | name=first:last:*factor"
      " (repeatable)");
  cmd->add_option("--out", args->out,
                  "CSV file (default results/local/<host>-<timestamp>.csv; 'none' for no file)")
      ->envname("GPUBARRIER_OUT");
  cmd->add_option("--system", args->system, "Machine type written to each row (configs/systems)")
      ->envname("GPUBARRIER_SYSTEM")
      ->capture_default_str();
  cmd->add_option("--samples", args->options.samples, "Minimum samples per configuration")
      ->envname("GPUBARRIER_SAMPLES")
      ->capture_default_str();
  cmd->add_option("--time-budget", args->options.time_budget_s,
                  "Seconds per configuration before adaptive sampling gives up")
      ->envname("GPUBARRIER_TIME_BUDGET")
      ->capture_default_str();
  cmd->add_option("--rse-target", args->options.rse_target,
                  "Stop sampling once the relative standard error is below this")
      ->envname("GPUBARRIER_RSE_TARGET")
      ->capture_default_str();
  cmd->add_option("--reps-lo", args->options.reps_lo, "Differential technique: R_lo")
      ->capture_default_str();
  cmd->add_option("--reps-hi", args->options.reps_hi, "Differential technique: R_hi")
      ->capture_default_str();
  cmd->add_flag("--json", global.json, "Rows as a JSON array on stdout (table goes to stderr)");
  cmd->callback([args, &global] { execute(*args, global); });
}

}  // namespace gb::cli
