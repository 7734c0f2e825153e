#include "app/session.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>

#include "app/child_process.hpp"
#include "app/context.hpp"
#include "app/default_out.hpp"
#include "app/isolation.hpp"
#include "app/outputs.hpp"
#include "app/topology_record.hpp"
#include "core/axis.hpp"
#include "core/axis_glossary.hpp"
#include "core/glob.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "core/runner.hpp"
#include "core/setting_ranges.hpp"
#include "errors/errors.hpp"
#include "io/console_table.hpp"
#include "io/json_writer.hpp"
#include "runtime/mpi_thread_level.hpp"
#include "runtime/node_layout.hpp"
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

std::vector<std::string> axis_names(const std::vector<Method*>& methods) {
  std::vector<std::string> known;
  for (Method* m : methods)
    for (const auto& a : m->axes())
      if (std::find(known.begin(), known.end(), a.name) == known.end()) known.push_back(a.name);
  return known;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& k : names) list += (list.empty() ? "" : ", ") + k;
  return list.empty() ? "none" : list;
}

[[noreturn]] void no_such_axis(const std::string& name, const std::vector<std::string>& known) {
  const std::string near = closest_word(name, known);
  throw UsageError("--axis " + name + ": no selected method has this axis" +
                   (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                   "; their axes: " + joined(known));
}

// The completion log's points with their configs as this version writes them (named values), so
// that a log written before values had names resumes without measuring its points again.
std::vector<DoneEntry> named_history(std::vector<DoneEntry> done,
                                     const std::vector<RunPlan>& plans) {
  for (DoneEntry& e : done)
    for (const RunPlan& plan : plans)
      for (const Method* m : plan.methods)
        if (m->name() == e.key.method) e.key.config = named_config(e.key.config, m->axes());
  return done;
}

// One --axis text: parsed, of an axis one of `methods` has, with values that every one of them
// that has the axis names (a categorical axis: its names and their codes) and values the axis can
// mean.
AxisOverride checked_override(const std::string& text, const std::vector<Method*>& methods) {
  AxisOverride o = parse_axis(text);
  const auto known = axis_names(methods);
  if (std::find(known.begin(), known.end(), o.name) == known.end()) no_such_axis(o.name, known);
  for (const Method* m : methods)
    for (const Axis& a : m->axes())
      if (a.name == o.name && a.categorical()) check_value_names(o, a, m->name());
  check_axis_values(o);
  return o;
}

// A run's own --axis (or a sweep entry's axes): every one must belong to a selected method.
// An axis given twice would keep only its last values: refused, naming both.
void refuse_repeated_axes(const std::vector<std::string>& texts) {
  for (std::size_t i = 0; i < texts.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (parse_axis(texts[i]).name == parse_axis(texts[j]).name)
        throw UsageError("--axis " + parse_axis(texts[i]).name + " is given twice ('" + texts[j] +
                         "' and '" + texts[i] + "'): give each axis once, with all its values " +
                         "(e.g. name=1,2,4)");
}

std::vector<AxisOverride> parse_overrides(const std::vector<std::string>& texts,
                                          const std::vector<Method*>& methods) {
  std::vector<AxisOverride> overrides;
  for (const auto& t : texts) overrides.push_back(checked_override(t, methods));
  refuse_repeated_axes(texts);
  return overrides;
}

// `sweep FILE --methods GLOBS --axis ...`: keeps the methods of each entry that match, and
// replaces an axis in every entry that has it; an entry left without methods is dropped. A glob
// or an axis that nothing in the file has is refused.
void narrow(std::vector<RunPlan>& plans, const Narrowing& cli) {
  if (!cli.methods.empty()) {
    std::vector<std::string> names;
    for (const auto& plan : plans)
      for (Method* m : plan.methods) names.emplace_back(m->name());
    const auto keep = select_names(cli.methods, names);  // refuses a glob matching none of them
    for (auto& plan : plans)
      std::erase_if(plan.methods, [&](Method* m) {
        return std::find(keep.begin(), keep.end(), m->name()) == keep.end();
      });
    std::erase_if(plans, [](const RunPlan& p) { return p.methods.empty(); });
  }
  std::vector<Method*> all_methods;
  for (const auto& plan : plans)
    all_methods.insert(all_methods.end(), plan.methods.begin(), plan.methods.end());
  refuse_repeated_axes(cli.axes);
  for (const auto& text : cli.axes) {
    const AxisOverride o = checked_override(text, all_methods);
    for (auto& plan : plans) {
      const auto mine = axis_names(plan.methods);
      if (std::find(mine.begin(), mine.end(), o.name) != mine.end()) plan.overrides.push_back(o);
    }
  }
}

// The points asked for, counted without expanding them, against --point-limit.
void check_point_count(const std::vector<RunPlan>& plans, long limit) {
  std::size_t total = 0;
  std::string largest;
  std::size_t largest_n = 0;
  for (const auto& plan : plans)
    for (const Method* m : plan.methods) {
      const std::size_t n = count_points(m->axes(), plan.overrides);
      total = total > SIZE_MAX - n ? SIZE_MAX : total + n;
      if (n > largest_n) largest_n = n, largest = std::string(m->name());
    }
  if (total <= static_cast<std::size_t>(limit)) return;
  throw UsageError("this run asks for " +
                   (total == SIZE_MAX ? std::string("more than 10^18") : std::to_string(total)) +
                   " points (the most for one method: " + largest + ", " +
                   std::to_string(largest_n) + "), over --point-limit " + std::to_string(limit) +
                   ": give fewer axis values, or raise --point-limit if you mean it");
}

std::vector<RunPlan> make_plans(const std::vector<std::unique_ptr<Method>>& all,
                                const std::vector<PlanSpec>& specs) {
  std::vector<RunPlan> plans;
  for (const auto& spec : specs) {
    RunPlan plan;
    plan.methods = pick(all, spec.methods);
    plan.overrides = parse_overrides(spec.axes, plan.methods);
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The flag's value (from the command line or its GPUBARRIER_* variable) within the range that
// sweep files apply too.
void check_range(const SettingRange& range, double value) {
  const std::string wrong = range_violation(range, value);
  if (!wrong.empty())
    throw UsageError(std::string(range.flag) + " " + number(value) + ": " + wrong);
}

}  // namespace

std::string categorical_axes_help() {
  std::string text =
      "A categorical axis takes a name or its code (`gpubarrier schema` says what "
      "each name means):";
  std::string axis;
  for (const GlossaryEntry& e : glossary()) {
    text += e.axis == axis ? "|" : (axis.empty() ? " " : "; ") + e.axis + ": ";
    text += e.name;
    axis = e.axis;
  }
  return text;
}

void validate_options(const RunOptions& o) {
  check_range(kSamplesRange, o.samples);
  check_range(kTimeBudgetRange, o.time_budget_s);
  check_range(kWatchdogRange, o.watchdog_s);
  check_range(kRseTargetRange, o.rse_target);
  if (o.reps_lo < 1 || o.reps_hi <= o.reps_lo)
    throw UsageError("--reps-lo/--reps-hi: need 1 <= reps_lo < reps_hi");
}

namespace {

void validate_session(const SessionArgs& a) {
  if (a.point_limit < 1) throw UsageError("--point-limit must be >= 1");
  check_range(kPointTimeoutRange, a.point_timeout_s);
  if (a.retry.max_retries < 0) throw UsageError("--max-retries must be >= 0");
}

// An isolated child is this executable running `run` with this session's settings (explicit
// flags: they beat the GPUBARRIER_* variables it inherits), writing no file of its own.
std::vector<std::string> child_command(const SessionArgs& a, const GlobalOptions& global,
                                       const std::string& run_id) {
  const RunOptions& o = a.options;
  const std::pair<const char*, std::string> flags[] = {
      {"--out", "none"},
      {"--isolate", std::string(name_of(Isolation::none))},
      {"--system", a.system},
      {"--samples", std::to_string(o.samples)},
      {"--time-budget", number(o.time_budget_s)},
      {"--rse-target", number(o.rse_target)},
      {"--watchdog", number(o.watchdog_s)},
      {"--reps-lo", std::to_string(o.reps_lo)},
      {"--reps-hi", std::to_string(o.reps_hi)},
      {"--run-id", run_id},
      {"--child-fd", "3"},
  };
  std::vector<std::string> cmd{self_executable(), "-v", global.log_level, "run"};
  for (const auto& [flag, value] : flags) cmd.insert(cmd.end(), {flag, value});
  if (!a.gpus.empty()) cmd.insert(cmd.end(), {"--gpus", a.gpus});
  return cmd;
}

// Under mpirun every rank is one process of one job: a child per method cannot be a rank. There
// the job generator isolates by running each method as its own mpirun/srun step.
Isolation effective_isolation(const SessionArgs& a, const Launch& launch) {
  if (a.isolate == Isolation::none || !launch.under_mpi) return a.isolate;
  if (launch.is_root() && a.isolate_given)
    std::fprintf(stderr,
                 "gpubarrier: note: --isolate %s does not apply under mpirun/srun (a rank cannot "
                 "be a child process); running without isolation. Isolate methods by running "
                 "each as its own mpirun/srun step (`gpubarrier jobs` does), with --resume.\n",
                 std::string(name_of(a.isolate)).c_str());
  return Isolation::none;
}

// The node name of every rank, and which ranks share a node (runtime/node_layout.hpp): by name and
// by shared-memory domain, since two slurmds on one host (the local test cluster) share memory
// but are two nodes to Slurm. Simulated nodes (test only) are named by rank (one rank per node)
// or by simulated node, and say so in the system column.
void gather_nodes(RunContext& ctx) {
  if (!ctx.launch.under_mpi) return;
  if (const int k = ctx.launch.ranks_per_simulated_node; k > 0) {
    ctx.env.node += k == 1 ? "-rank" + std::to_string(ctx.launch.rank)
                           : "-node" + std::to_string(ctx.launch.rank / k);
    ctx.env.system += "-simulated";
  }
  ctx.env.rank_nodes = gather_strings(ctx.launch, ctx.env.node);
  const std::vector<int> domains = ctx.launch.gather(ctx.launch.shared_domain);
  std::vector<std::string> keys;
  for (std::size_t r = 0; r < ctx.env.rank_nodes.size() && r < domains.size(); ++r)
    keys.push_back(node_key(ctx.env.rank_nodes[r], domains[r]));
  ctx.launch.layout = layout_nodes(keys);
  ctx.launch.nodes = std::max(ctx.launch.nodes, ctx.launch.layout.nodes());
}

// The model and UUID of every rank's GPU (its first), in rank order like rank_gpus: an ordinal
// alone does not say which GPU of which node a rank drove.
void gather_rank_gpus(RunContext& ctx) {
  if (!ctx.launch.under_mpi) return;
  GpuIdentity mine;
  if (!ctx.gpus.empty() && static_cast<std::size_t>(ctx.gpus.front()) < ctx.env.gpus.size())
    mine = ctx.env.gpus[static_cast<std::size_t>(ctx.gpus.front())];
  const auto models = gather_strings(ctx.launch, mine.model);
  const auto uuids = gather_strings(ctx.launch, mine.uuid);
  ctx.env.rank_gpus.clear();
  for (std::size_t r = 0; r < models.size() && r < uuids.size(); ++r)
    ctx.env.rank_gpus.push_back({models[r], uuids[r]});
}

// Throws, on every rank, the mistake of the lowest rank that found one (named when it is not rank
// 0's own); nothing when no rank did. Outside MPI, this process's mistake.
void agree_on_input(const Launch& launch, const std::string& mistake) {
  const std::vector<std::string> all = gather_strings(launch, mistake);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty()) continue;
    throw UsageError(r == 0 ? all[r] : "rank " + std::to_string(r) + ": " + all[r]);
  }
}

}  // namespace

CLI::Validator out_path_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (!value.empty()) return "";
        return "expected a file path, or none for no CSV (without --out the CSV is "
               "results/local/<host>-<timestamp>.csv)";
      },
      "PATH");
}

void add_session_options(CLI::App& cmd, SessionArgs& args) {
  cmd.add_option("--gpus", args.gpus,
                 "GPU indices, e.g. 0,1 (default: all visible; under MPI the local rank's GPU)")
      ->envname("GPUBARRIER_GPUS");
  cmd.add_option("--out", args.out,
                 "CSV file (default results/local/<host>-<timestamp>.csv; 'none' for no file)")
      ->envname("GPUBARRIER_OUT")
      ->check(out_path_check());
  cmd.add_option("--raw", args.raw,
                 "Also write every sample behind every figure to this CSV, one line each "
                 "(run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,value)")
      ->envname("GPUBARRIER_RAW");
  cmd.add_option("--system", args.system,
                 "Machine type written to each row, e.g. dgx-h100 (default local)")
      ->envname("GPUBARRIER_SYSTEM")
      ->capture_default_str();
  cmd.add_option("--samples", args.options.samples,
                 "Minimum samples per configuration, within --time-budget (the budget ends a "
                 "configuration that has not reached them)")
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
  cmd.add_flag("--resume", args.resume,
               "Continue the --out CSV: skip points its completion log (<out>.done) lists as "
               "finished, drop rows of a point that never finished")
      ->envname("GPUBARRIER_RESUME");
  cmd.add_flag("--force", args.force,
               "Replace an --out or --raw file that already holds rows (without it such a file is "
               "refused: continue it with --resume)")
      ->envname("GPUBARRIER_FORCE");
  cmd.add_flag("--retry-failed", args.retry.retry_failed,
               "With --resume: run failed and timeout points again (see --max-retries)")
      ->envname("GPUBARRIER_RETRY_FAILED");
  cmd.add_option("--max-retries", args.retry.max_retries,
                 "With --retry-failed: attempts after a point's first failure")
      ->envname("GPUBARRIER_MAX_RETRIES")
      ->capture_default_str();
  cmd.add_option("--point-limit", args.point_limit,
                 "Refuse a run of more points than this (the product of the axes' values, summed "
                 "over methods); raise it for a sweep that large on purpose")
      ->envname("GPUBARRIER_POINT_LIMIT")
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--isolate",
         [&args](const std::string& text) {
           args.isolate = parse_name<Isolation>(text, "--isolate");
         },
         "Run each method or point in a child process (a crash becomes a failed row, a hang a "
         "timeout row), or none")
      ->envname("GPUBARRIER_ISOLATE")
      ->check(CLI::IsMember(names_of<Isolation>()))
      ->default_str(std::string(name_of(args.isolate)));
  cmd.add_option("--point-timeout", args.point_timeout_s,
                 "Seconds an isolated child may take for one point before it is killed")
      ->envname("GPUBARRIER_POINT_TIMEOUT")
      ->capture_default_str();
  cmd.add_option("--mpi-thread-level", args.mpi_thread_level,
                 "Under mpirun/srun: the thread support asked of MPI_Init_thread (single, "
                 "funneled, serialized, multiple). gpubarrier calls MPI from its main thread "
                 "only; OSU measures at single. Open MPI 4.1 takes locks in every call above "
                 "single, which MPI_Barrier's figure shows. Written in the mpi_thread_level column")
      ->envname("GPUBARRIER_MPI_THREAD_LEVEL")
      ->check(CLI::IsMember(mpi_thread_level_names()))
      ->capture_default_str();
  // For isolated children only (started by the session itself), so not in --help.
  cmd.add_option("--run-id", args.run_id)->group("");
  cmd.add_option("--child-fd", args.child.fd)->group("");
  cmd.add_option("--skip-file", args.child.skip_file)->group("");
  cmd.add_option("--max-points", args.child.max_points)->group("");
}

void check_point_limit(const std::vector<PlanSpec>& specs, long limit) {
  const auto all = Registry::instance().create_all();
  check_point_count(make_plans(all, specs), limit);
}

void execute_session(SessionArgs& args, const SpecReader& read_specs, const GlobalOptions& global,
                     const Narrowing& cli) {
  const auto all = Registry::instance().create_all();
  std::vector<RunPlan> plans;
  std::string mistake;
  try {
    const std::vector<PlanSpec> specs = read_specs();
    validate_options(args.options);
    validate_session(args);
    plans = make_plans(all, specs);
    narrow(plans, cli);
    check_point_count(plans, args.point_limit);
  } catch (const UsageError& e) {
    mistake = e.what();
  }

  // MPI only when mpirun/srun started us: a plain run never touches MPI.
  int argc = 0;
  char** argv = nullptr;
  const Launch launch = init_launch(&argc, &argv, args.mpi_thread_level);
  struct Finalize {
    const Launch& l;
    ~Finalize() { finalize_launch(l); }
  } finalize{launch};
  agree_on_input(launch, mistake);

  RunContext ctx = make_context(launch, args.gpus);
  ctx.options = args.options;
  ctx.env.system = args.system;
  ctx.topology = std::make_shared<const topo::Topology>(topo::probe_local());
  gather_nodes(ctx);
  gather_rank_gpus(ctx);
  const std::string run_id = args.run_id.empty() ? make_run_id(ctx.env.host) : args.run_id;
  for (auto& plan : plans) {
    plan.run_id = run_id;
    plan.topology_class = topo::topology_class(*ctx.topology, ctx.gpus);
  }
  if (args.child.fd >= 0) {
    ctx.isolated = true;
    ProgressLine none(0, false);  // the parent shows the session's progress
    for (auto& plan : plans) plan.progress = &none;
    run_as_child(ctx, plans, args.child);
    return;
  }
  if (args.out.empty()) args.out = default_out(launch, ctx.env.host, run_id);
  const Isolation isolate = effective_isolation(args, launch);
  const Outputs files = open_outputs(launch, args.out, args.raw, {args.resume, args.force});
  if (files.csv) record_topology(files.csv->path(), *ctx.topology, args.resume);
  PointBook book(named_history(files.done, plans), args.retry);
  book.record_to(files.log.get(), files.csv.get(), files.base_rows, launch.under_mpi);

  ConsoleTable table(stdout);
  JsonWriter json(stdout);
  std::vector<ResultSink*> sinks;
  if (files.csv) sinks.push_back(files.csv.get());
  if (files.raw) sinks.push_back(files.raw.get());
  sinks.push_back(global.json ? static_cast<ResultSink*>(&json) : &table);

  std::size_t points = 0;
  for (const auto& plan : plans) points += count_plan_points(ctx, plan);
  ProgressLine progress(points, launch.is_root() && ProgressLine::wanted());
  RunTally tally;
  if (isolate == Isolation::none) {
    for (auto& plan : plans) {
      plan.hooks = &book;
      plan.progress = &progress;
      tally += run_plan(ctx, plan, sinks);
    }
  } else {
    const IsolationArgs iso{isolate == Isolation::point, args.point_timeout_s,
                            child_command(args, global, run_id)};
    tally = run_isolated(ctx, plans, book, sinks, iso, progress);
  }
  progress.clear();
  if (!launch.is_root()) return;
  for (ResultSink* s : sinks) s->finish();
  std::fprintf(stderr, "%d rows: %d ok, %d skipped, %d failed, %d timeout, %d unverified%s%s\n",
               tally.total(), tally.ok, tally.skipped, tally.failed, tally.timeout,
               tally.unverified, files.csv ? "; CSV: " : "",
               files.csv ? files.csv->path().c_str() : "");
}

}  // namespace gb::cli
