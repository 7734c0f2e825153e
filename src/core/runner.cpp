#include "core/runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "core/agreement.hpp"
#include "core/bounds.hpp"
#include "core/faults.hpp"
#include "core/launch_mode.hpp"
#include "core/oversubscription.hpp"
#include "core/progress.hpp"
#include "core/resolution.hpp"
#include "core/state.hpp"
#include "core/timed_regions.hpp"
#include "topology/topology_class.hpp"

namespace gb {
namespace {

class Emitter {
 public:
  Emitter(const RunContext& ctx, const std::vector<ResultSink*>& sinks, RunTally& tally,
          ProgressLine& progress)
      : ctx_(ctx), sinks_(sinks), tally_(tally), progress_(progress) {}
  void emit(const Record& record) {
    count(record.figure.status);
    note_outcome(record.figure.status);
    if (!ctx_.launch.is_root()) return;
    progress_.clear();  // a table row never glues to the progress line
    for (ResultSink* s : sinks_) s->write(record);
  }
  // The outcome of the records emitted since the last call (PointHooks::finished).
  Status take_outcome() {
    const Status s = outcome_;
    outcome_ = Status::ok;
    any_ = false;
    return s;
  }

 private:
  void count(Status status) {
    switch (status) {
      case Status::ok:
        ++tally_.ok;
        break;
      case Status::skipped:
        ++tally_.skipped;
        break;
      case Status::failed:
        ++tally_.failed;
        break;
      case Status::timeout:
        ++tally_.timeout;
        break;
      case Status::unverified:
        ++tally_.unverified;
        break;
    }
  }
  void note_outcome(Status status) {
    const auto bad = [](Status x) { return x == Status::failed || x == Status::timeout; };
    if (!any_ || (bad(status) && !bad(outcome_))) outcome_ = status;
    any_ = true;
  }
  const RunContext& ctx_;
  const std::vector<ResultSink*>& sinks_;
  RunTally& tally_;
  ProgressLine& progress_;
  Status outcome_ = Status::ok;
  bool any_ = false;
};

// The class of the GPUs `gpus` ("single", "nv18-clique2"); empty for host-only methods.
// Under mpirun: of the distinct GPUs all ranks drive (ordinals of this node), with "-<n>nodes"
// appended when the ranks span several nodes.
std::string topology_of(const RunContext& ctx, const RunPlan& plan, const Method& method,
                        const std::vector<int>& gpus) {
  if (method.requirements().min_gpus == 0) return {};
  if (!ctx.topology) return plan.topology_class;
  std::vector<int> distinct;
  for (int g : gpus)
    if (g >= 0 && std::find(distinct.begin(), distinct.end(), g) == distinct.end())
      distinct.push_back(g);
  std::string cls = topo::topology_class(*ctx.topology, distinct);
  if (ctx.collective && ctx.launch.nodes > 1)
    cls += "-" + std::to_string(ctx.launch.nodes) + "nodes";
  return cls;
}

std::string topology_of(const RunContext& ctx, const RunPlan& plan, const Method& method) {
  return topology_of(ctx, plan, method, ctx.row_gpus());
}

// One part of a point on this member (feasible, verify, measure). Under MPI a rank that fails in
// it meets the others at an agreement point (core/agreement.hpp), where every rank throws the
// same TeamFailure: all end the point with the same failed row and start the next one together.
// `settle` adds the agreement point at the part's end (verify, measure), where the others meet a
// rank that failed after their last one and where one rank's skip becomes every rank's.
template <class Part>
auto run_part(RunContext& ctx, State* settle, PointPart which, Part&& part) {
  const faults::Phase phase(which);
  try {
    auto result = part();
    if (settle && any_rank_refuses(ctx, settle->skipped()) && !settle->skipped())
      settle->skip("another rank skipped this configuration");
    return result;
  } catch (const TeamFailure&) {
    throw;  // agreed by every rank already
  } catch (const std::exception& e) {
    agree(ctx, e.what());  // throws TeamFailure under MPI; elsewhere the failure stays this one
    throw;
  }
}

// Applies the verification's outcome to a figure's status and note.
void apply_verification(const Verification& v, Measurement& m) {
  if (v.result == Verification::Result::failed) {
    m.status = Status::unverified;
    m.note = "barrier check failed: " + v.detail + (m.note.empty() ? "" : "; " + m.note);
  } else if (v.result == Verification::Result::passed && m.note.empty()) {
    m.note = "verified";
  } else if (v.result == Verification::Result::passed) {
    m.note = "verified; " + m.note;
  } else if (v.result == Verification::Result::not_applicable && !v.detail.empty()) {
    m.note = "not verified: " + v.detail + (m.note.empty() ? "" : "; " + m.note);
  }
}

// One configuration, on a State of its own: feasible, verify, measure, each outcome a record.
// The records are emitted once every rank agreed that the point ended well.
void run_point(RunContext& ctx, const RunPlan& plan, Method& method, const Point& point,
               Emitter& out) {
  faults::crash_or_hang(method.name(), point.to_string());
  const std::string topology = topology_of(ctx, plan, method);
  auto status_record = [&](Status status, const std::string& note) {
    return make_record(ctx, plan.run_id, method, point, topology, status, note);
  };
  auto records = [&]() -> std::vector<Record> {
    const Usability f =
        run_part(ctx, nullptr, PointPart::feasible, [&] { return method.feasible(ctx, point); });
    if (!f.ok) return {status_record(Status::skipped, f.reason)};
    // The parts run inside the State's lifetime: a failure unwinds through its resources only
    // once every rank knows of it (their destructors then skip their collectives).
    State state(ctx, point);
    const Verification v =
        run_part(ctx, &state, PointPart::verify, [&] { return method.verify(state); });
    if (state.skipped()) return {status_record(Status::skipped, state.skip_reason())};
    if (v.result == Verification::Result::timeout)
      return {status_record(Status::timeout, "verification run: " + v.detail)};
    std::vector<Measurement> figures =
        run_part(ctx, &state, PointPart::measure, [&] { return method.measure(state); });
    if (state.skipped()) return {status_record(Status::skipped, state.skip_reason())};
    check_loop_agreement(figures);  // a loop far from its per-step figure: both noisy
    // Where the ranks ran (a job script binds each to a core of its own): said in every figure.
    const std::string where = rank_cpus_note(ctx);
    std::vector<Record> rows;
    const std::vector<Bound> bounds = method.bounds();
    for (Measurement& m : figures) {
      // A clock figure says whether its timed region holds the instruction it claims to time,
      // as a part of its own after the method's (core/timed_regions.hpp).
      if (m.technique == Technique::clock)
        if (std::string part = timed_region_note(method, point, ctx.compute_capability);
            !part.empty())
          m.note += (m.note.empty() ? "" : "; ") + part;
      if (!where.empty()) m.note += (m.note.empty() ? "" : "; ") + where;
      apply_verification(v, m);
      apply_bounds(bounds, m);  // a figure outside a physical bound: unverified, said first
      mark_unresolved(m);  // an Eq. 6/7 interval that includes zero: unverified, with its bound
      rows.push_back(with_figure(status_record(Status::ok, {}), m));
      if (!m.gpus.empty()) rows.back().topology = topology_of(ctx, plan, method, m.gpus);
    }
    return rows;
  };
  std::vector<Record> rows;
  try {
    rows = records();
  } catch (const std::exception& e) {
    spdlog::error("{} {}: {}", method.name(), point.to_string(), e.what());
    rows = {status_record(Status::failed, e.what())};
  }
  for (const Record& r : rows) out.emit(r);
}

}  // namespace

std::size_t count_points(const std::vector<Axis>& axes,
                         const std::vector<AxisOverride>& overrides) {
  std::size_t n = 1;
  for (const Axis& axis : axes) {
    std::size_t values = axis.values.size();
    for (const auto& o : overrides)
      if (o.name == axis.name) values = o.values.size();
    // Saturates instead of overflowing: a count this large is refused all the same.
    n = values != 0 && n > SIZE_MAX / values ? SIZE_MAX : n * values;
  }
  return n;
}

std::size_t count_plan_points(const RunContext& ctx, const RunPlan& plan) {
  std::size_t total = 0;
  for (const Method* m : plan.methods) {
    const bool per_gpu = m->requirements().max_gpus == 1 && ctx.gpus.size() > 1;
    total += count_points(m->axes(), plan.overrides) * (per_gpu ? ctx.gpus.size() : 1);
  }
  return total;
}

RunTally run_plan(RunContext& ctx, const RunPlan& plan, const std::vector<ResultSink*>& sinks) {
  RunTally tally;
  ProgressLine own(count_plan_points(ctx, plan),
                   !plan.progress && ctx.launch.is_root() && ProgressLine::wanted());
  ProgressLine& progress = plan.progress ? *plan.progress : own;
  Emitter out(ctx, sinks, tally, progress);
  std::vector<std::pair<Method*, std::vector<Point>>> work;
  for (Method* m : plan.methods) work.emplace_back(m, expand_points(m->axes(), plan.overrides));
  ctx.named_axes.clear();
  for (const AxisOverride& o : plan.overrides) ctx.named_axes.push_back(o.name);
  const std::string launcher = ctx.launch.launcher;
  for (auto& [method, points] : work) {
    const Mode mode = launch_mode(ctx.launch, method->requirements());
    // Threads mode counts as collective too: its participants are this process's threads (the
    // rank maximum is then the identity) and its rows say launcher=threads.
    ctx.collective = mode != Mode::single;
    ctx.launch.launcher = mode == Mode::threads ? to_string(mode) : launcher;
    const bool mine = ctx.collective || ctx.launch.is_root();
    if (!mine) continue;
    if (const Usability u = method->usable(ctx); !u.ok) {
      const Record skipped =
          make_record(ctx, plan.run_id, *method, Point{}, topology_of(ctx, plan, *method),
                      Status::skipped, u.reason);
      if (!plan.hooks || plan.hooks->start(skipped)) {
        out.emit(skipped);
        if (plan.hooks) plan.hooks->finished(skipped, out.take_outcome());
      }
      for (std::size_t i = 0; i < points.size(); ++i) progress.end();
      continue;
    }
    // A single-GPU method given several GPUs runs on each of them in turn.
    const std::vector<int> all_gpus = ctx.gpus;
    std::vector<std::vector<int>> gpu_sets{all_gpus};
    if (method->requirements().max_gpus == 1 && all_gpus.size() > 1) {
      gpu_sets.clear();
      for (int g : all_gpus) gpu_sets.push_back({g});
    }
    for (const auto& gpus : gpu_sets) {
      ctx.gpus = gpus;
      for (const Point& asked : points) {
        // gpu_count=0 means all GPUs given; threads mode then drives the first gpu_count of
        // them, mpi mode always one GPU per rank.
        const long available = mode == Mode::mpi ? ctx.launch.size : static_cast<long>(gpus.size());
        const Point point = resolve_gpu_count(asked, available);
        ctx.gpus =
            mode == Mode::threads ? first_gpus(gpus, point.get(kGpuCountAxis, available)) : gpus;
        const Record identity = make_record(ctx, plan.run_id, *method, point,
                                            topology_of(ctx, plan, *method), Status::ok, {});
        if (!plan.hooks || plan.hooks->start(identity)) {
          if (ctx.launch.is_root())
            progress.begin(std::string(method->name()) + " " + point.to_string());
          spdlog::debug("{} {} gpus={}", method->name(), point.to_string(), ctx.gpus.size());
          run_point(ctx, plan, *method, point, out);
          if (plan.hooks) plan.hooks->finished(identity, out.take_outcome());
        }
        if (ctx.launch.is_root()) progress.end();
      }
    }
    ctx.gpus = all_gpus;
  }
  ctx.collective = false;
  ctx.launch.launcher = launcher;
  return tally;
}

}  // namespace gb
