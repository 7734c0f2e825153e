#include "app/session.hpp"

#include <cstdio>
#include <optional>

#include "app/child_process.hpp"
#include "app/isolation.hpp"
#include "app/outputs.hpp"
#include "app/session_context.hpp"
#include "app/session_request.hpp"
#include "app/session_steps.hpp"
#include "app/topology_record.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "io/console_table.hpp"
#include "io/json_writer.hpp"
#include "runtime/launcher.hpp"
#include "topology/topology_class.hpp"

namespace gb::cli {
namespace {

// MPI, initialised only when mpirun/srun started this process (a plain run never touches it),
// and finalised when the session ends, by return or by throw.
class LaunchScope {
 public:
  explicit LaunchScope(MpiThreadLevel thread_level) {
    int argc = 0;
    char** argv = nullptr;
    launch_ = init_launch(&argc, &argv, thread_level);
  }
  ~LaunchScope() { finalize_launch(launch_); }
  LaunchScope(const LaunchScope&) = delete;
  LaunchScope& operator=(const LaunchScope&) = delete;
  const Launch& get() const { return launch_; }

 private:
  Launch launch_;
};

// Where rows go: the output files that are open, then the console table or, with --json, JSON
// on stdout.
class SessionSinks {
 public:
  SessionSinks(const Outputs& files, bool json) {
    if (files.csv) all_.push_back(files.csv.get());
    if (files.raw) all_.push_back(files.raw.get());
    all_.push_back(json ? static_cast<ResultSink*>(&json_) : &table_);
  }
  const std::vector<ResultSink*>& all() const { return all_; }
  void finish() {
    for (ResultSink* s : all_) s->finish();
  }

 private:
  ConsoleTable table_{stdout};
  JsonWriter json_{stdout};
  std::vector<ResultSink*> all_;
};

// An isolated child runs its plans quietly (its parent shows the session's progress) and
// reports each record on its pipe.
void serve_parent(RunContext ctx, std::vector<RunPlan> plans, const ChildArgs& child) {
  ctx.isolated = true;
  ProgressLine none(0, false);
  for (auto& plan : plans) plan.progress = &none;
  run_as_child(ctx, plans, child);
}

// How isolated children run the plans; std::nullopt: in this process.
std::optional<IsolationArgs> isolated_children(Isolation isolate, const SessionArgs& args,
                                               const GlobalOptions& global,
                                               const std::string& run_id) {
  if (isolate == Isolation::none) return std::nullopt;
  return IsolationArgs{isolate == Isolation::point, args.point_timeout_s,
                       child_command(self_executable(), args, global, run_id)};
}

// Runs every plan, in this process or in isolated `children`, into `sinks`, skipping what `book`
// counts as done and recording what finishes.
RunTally measure(RunContext& ctx, std::vector<RunPlan> plans, PointBook& book,
                 const std::vector<ResultSink*>& sinks,
                 const std::optional<IsolationArgs>& children) {
  std::size_t points = 0;
  for (const auto& plan : plans) points += count_plan_points(ctx, plan);
  ProgressLine progress(points, ctx.launch.is_root() && ProgressLine::wanted());
  RunTally tally;
  if (!children) {
    for (auto& plan : plans) {
      plan.hooks = &book;
      plan.progress = &progress;
      tally += run_plan(ctx, plan, sinks);
    }
  } else {
    tally = run_isolated(ctx, plans, book, sinks, *children, progress);
  }
  progress.clear();
  return tally;
}

}  // namespace

void execute_session(const SessionArgs& given, const SpecReader& read_specs,
                     const GlobalOptions& global, const Narrowing& narrowing) {
  const auto all = Registry::instance().create_all();
  const Request request = read_request(given, read_specs, narrowing, all);
  const SessionArgs& args = request.args;

  const LaunchScope scope(args.mpi_thread_level);
  const Launch& launch = scope.get();
  agree_on_input(launch, request.mistake);

  RunContext ctx = session_context(launch, args);
  const std::string run_id = session_run_id(args, ctx.env.host);
  std::vector<RunPlan> plans =
      stamped(request.plans, run_id, topo::topology_class(*ctx.topology, ctx.gpus));
  if (args.child.fd >= 0) return serve_parent(std::move(ctx), std::move(plans), args.child);

  const std::optional<std::string> out = resolve_out(args.out, launch, ctx.env.host, run_id);
  const Isolation isolate = choose_isolation(args.isolate, args.isolate_given, launch);
  const Outputs files = open_outputs(launch, out, args.raw, {args.resume, args.force});
  if (files.csv) record_topology(files.csv->path(), *ctx.topology, args.resume);
  PointBook book(named_history(files.done, plans), args.retry);
  book.record_to(files.log.get(), files.csv.get(), files.base_rows, launch.under_mpi);

  SessionSinks sinks(files, global.json);
  const RunTally tally = measure(ctx, std::move(plans), book, sinks.all(),
                                 isolated_children(isolate, args, global, run_id));
  if (!launch.is_root()) return;
  sinks.finish();
  std::fprintf(stderr, "%s\n",
               summary_line(tally, files.csv ? files.csv->path() : std::string()).c_str());
}

}  // namespace gb::cli
