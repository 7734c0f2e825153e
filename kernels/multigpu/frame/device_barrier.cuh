// The Method behind every device-side multi-GPU barrier algorithm (frame/algorithm.cuh says what
// an algorithm type holds and checks it, frame/crossing.cuh runs its crossing): the team,
// the memory, the stamp check and the differential timing are the same for all, so an algorithm
// file holds only its type and one registration line:
//   GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Push>)
// A library's barrier (multigpu/nccl_lsa.cu) brings its own kernel and session and reuses
// DeviceMethodBase, BarrierMemory, verify_crossings and measure_crossings.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/occupancy.cuh"
#include "core/faults.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "core/watchdog.hpp"
#include "multigpu/frame/algorithm.cuh"
#include "multigpu/frame/orderings.hpp"
#include "multigpu/frame/step_graphs.cuh"
#include "runtime/barrier_memory.cuh"
#include "runtime/host_shared.hpp"
#include "runtime/peer_atomics.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// Crossings of the check: every member arrives late in turn at kVerifyRounds / members of them.
// A fault=3 (unordered) point runs kUnorderedRounds, since what it may show is rare.
inline constexpr long kVerifyRounds = 64;
inline constexpr long kUnorderedRounds = 1L << 17;

// The `launch` axis: how the barriers of one run are launched. persistent: one cooperative kernel
// of blocks_per_sm x SMs blocks per GPU crosses all of them; graph: one block per GPU and one
// launch per barrier, the launches of a run captured once into a CUDA graph and replayed
// (frame/step_graphs.cuh), the shape of a framework's barrier op (multigpu.torch.symm-barrier).
inline constexpr std::string_view kLaunchAxis = "launch";
enum class LaunchMode { persistent = 0, graph = 1 };

inline LaunchMode launch_mode(const Point& p) {
  return p.choice(kLaunchAxis, LaunchMode::persistent);
}

// The axis, its default persistent.
inline Axis launch_axis() {
  return {std::string(kLaunchAxis),
          {static_cast<long>(LaunchMode::persistent)},
          {{LaunchMode::persistent, "persistent",
            "one persistent cooperative kernel per GPU crosses every barrier of a run"},
           {LaunchMode::graph, "graph",
            "one launch per barrier crossing, a run's launches captured once into a CUDA graph "
            "and replayed"}}};
}

// One configuration of algorithm A on this process's GPUs: its memory and kernel arguments.
// A State resource (core/state.hpp): verify() and measure() of a point share it.
template <DeviceAlgorithm A>
class BarrierSession {
 public:
  BarrierSession(const RunContext& ctx, const Team& team, const Point& p)
      : ctx_(ctx),
        team_(team),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(launch_mode(p) == LaunchMode::graph ? 1 : blocks_per_gpu(team, p)),
        host_(A::traits.host_bytes ? std::make_unique<HostShared>(team, A::traits.host_bytes)
                                  : nullptr),
        mem_(ctx, team, p, blocks_, words_bytes<A>(blocks_, team.size())),
        steps_(launch_mode(p) == LaunchMode::graph ? std::make_unique<StepGraphs>(team) : nullptr) {
    const AlgoSetup setup{ctx, team, p, blocks_, host_.get()};
    for (int l = 0; l < team.local_count(); ++l) args_.push_back(A::args(setup, l));
    note_ = hook_text(A::traits.note, setup);
    if (steps_)
      note_ = "one launch per barrier: a CUDA graph of R launches of 1 block per GPU" +
              (note_.empty() ? "" : "; " + note_);
  }

  void set_checking(bool on) {
    mem_.set_checking(on);
    checking_ = on;
  }

  // `reps` crossings on every GPU of the team; seconds from the first launch to the last wait
  // (launch=1: the graph's replay; its capture, the first time, comes before).
  double run(long reps) {
    if (steps_) {
      steps_->prepare(reps, checking_, [&](int l, Word* epoch) { launch_step(l, epoch); });
      return mem_.run(reps, [&](int l, BarrierArgs&) { steps_->replay(l, reps, checking_); });
    }
    return mem_.run(reps, [&](int l, BarrierArgs& a) {
      void* params[] = {&a, &args_[l]};
      GB_CUDA_CHECK(cudaLaunchCooperativeKernel(ordered_barrier_kernel<A>(a.ordering), blocks_,
                                                threads_, params, 0, team_.stream(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(l)));
    });
  }

  std::vector<double> problems() const { return mem_.problems(); }
  std::string timeout_detail() const {
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU never reached the barrier";
  }
  int blocks() const { return blocks_; }
  const std::string& note() const { return note_; }

 private:
  // One launch of the one-crossing kernel on local member l's stream (being captured): one
  // block; a cooperative launch only for an algorithm that crosses with grid.sync (grid_sync),
  // since in a graph a cooperative launch costs more per launch than a plain one.
  void launch_step(int l, Word* epoch) {
    BarrierArgs a = mem_.args(l);
    void* params[] = {&a, &args_[l], &epoch};
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1);
    config.blockDim = dim3(static_cast<unsigned>(threads_));
    config.stream = team_.stream(l);
    config.attrs = &cooperative;
    config.numAttrs = A::traits.grid_sync ? 1 : 0;
    GB_CUDA_CHECK(cudaLaunchKernelExC(
        &config, reinterpret_cast<const void*>(barrier_step_kernel<A>), params));
  }

  const RunContext& ctx_;
  const Team& team_;
  int threads_;
  int blocks_;
  std::unique_ptr<HostShared> host_;
  BarrierMemory mem_;
  std::unique_ptr<StepGraphs> steps_;  // launch=1 only
  bool checking_ = false;
  std::vector<typename A::Args> args_;
  std::string note_;
};

// "<s> stale stamps and <p> stale payload words in <n> crossings" of problems() after n crossings.
inline std::string stale_detail(const std::vector<double>& bad, long crossings) {
  return std::to_string(static_cast<long>(bad[0])) + " stale stamps and " +
         std::to_string(static_cast<long>(bad[2])) +
         " stale payload words seen after the barrier in " + std::to_string(crossings) +
         " crossings";
}

// The check of a session S (run(reps), problems(), timeout_detail()): `rounds` crossings, then
// every block's view of every other block's stamp and of one other block's payload.
template <class S>
Verification verify_crossings(S& session, long rounds = kVerifyRounds) {
  session.run(rounds);
  const std::vector<double> bad = session.problems();
  if (bad[1] > 0) return Verification::timed_out(session.timeout_detail());
  if (bad[0] > 0 || bad[2] > 0) return Verification::failed(stale_detail(bad, rounds));
  return Verification::passed();
}

// The differential latency of a session S (also blocks()), noted "<n> GPUs x <b> blocks". A
// watchdog that expires while timing makes the row `timeout`, as in the verification run.
template <class S>
Measurement measure_crossings(const RunContext& ctx, const Team& team, S& session) {
  auto run = [&](long reps) {
    const double seconds = session.run(reps);
    if (session.problems()[1] > 0)
      throw WatchdogTimeout(session.timeout_detail() + " while timing " + std::to_string(reps) +
                            " crossings");
    return seconds;
  };
  Measurement m;
  try {
    m = differential(ctx, run);
  } catch (const WatchdogTimeout& e) {
    return timeout_measurement(Metric::latency, "ns", Technique::differential, e.what());
  }
  m.note = std::to_string(team.size()) + " GPUs x " + std::to_string(session.blocks()) + " blocks";
  return m;
}

// What a fault point's check caught (the test hooks are not timed): stale stamps and stale
// payload words per 10^6 crossings, after `crossings` crossings with problems() `bad`.
inline std::vector<Measurement> caught_rows(const std::vector<double>& bad, long crossings,
                                            long fault) {
  std::vector<Measurement> rows;
  for (const auto& [metric, count] : {std::pair{Metric::check_stale_stamps, bad[0]},
                                      std::pair{Metric::check_stale_payload, bad[2]}}) {
    Measurement m;
    m.metric = metric;
    m.unit = "per 1e6 crossings";
    m.technique = Technique::check;
    m.statistic = Statistic::count;
    m.value = count * 1e6 / static_cast<double>(crossings);
    m.reps_lo = m.reps_hi = crossings;
    m.stop = StopReason::fixed;
    m.note = "test hook fault=" + std::to_string(fault) + ": " +
             std::to_string(static_cast<long>(count)) + " in " + std::to_string(crossings) +
             " crossings";
    rows.push_back(m);
  }
  return rows;
}

// What a persistent kernel that reaches its peers' memory needs (also
// reduction.multi.device-barrier's).
inline Requirements device_requirements() {
  Requirements r = Requirements::gpu_team(true, true);
  r.peer_access = true;
  return r;
}

// What every device-side multi-GPU method shares, whoever provides the barrier: a persistent
// cooperative kernel per GPU of one node, peers reached over NVLink/PCIe, threads or mpi mode.
class DeviceMethodBase : public Method {
 public:
  using Method::Method;
  Requirements requirements() const override { return device_requirements(); }

  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    if (Usability u = team_usable(ctx, requirements()); !u.ok) return u;
    if (ctx.launch.nodes > 1)
      return Usability::no("device-side barriers reach peers over NVLink/PCIe: one node only");
    return Usability::yes();
  }

 protected:
  // The axes every device-side barrier has: GPU count, block shape and memory ordering.
  static std::vector<Axis> common_axes() {
    return {{kGpuCountAxis, {0}},
            {"blocks_per_sm", {1, 4}},
            {"threads_per_block", {128, 256}},
            {"ordering", {0, 1}, ordering_names()}};
  }

  // The names of the ordering axis' codes (runtime/barrier_args.cuh's Ordering).
  static std::vector<ValueName> ordering_names() {
    return {{Ordering::acquire_release, orderings::release_acquire},
            {Ordering::relaxed_fenced, orderings::seq_cst_fence},
            {Ordering::relaxed_acq_rel, orderings::acq_rel_fence}};
  }

  // Whether `kernel` can run one configuration: gpu_count, the block shape, the team's
  // size, peer access, and every block co-resident on every local GPU (cooperative launch).
  // `span`: whose GPUs share the barrier's words (Span::node: the largest node's count at most
  // kMaxMembers; multinode.hierarchical).
  static Usability launchable(const RunContext& ctx, const Point& p, const void* kernel,
                              Span span = Span::team) {
    if (Usability u = team_feasible(ctx, p); !u.ok) return u;
    const long per_sm = p.at("blocks_per_sm"), threads = p.at("threads_per_block");
    if (per_sm < 1 || threads < 32 || threads > 1024)
      return Usability::no("needs blocks_per_sm >= 1 and 32..1024 threads_per_block");
    int members = ctx.launch.under_mpi ? ctx.launch.size : static_cast<int>(ctx.gpus.size());
    if (span == Span::node && !ctx.launch.layout.empty())
      members =
          *std::max_element(ctx.launch.layout.node_size.begin(), ctx.launch.layout.node_size.end());
    if (members > kMaxMembers)
      return Usability::no("at most " + std::to_string(kMaxMembers) + " GPUs" +
                           (span == Span::node ? " per node" : ""));
    const std::vector<int> local =
        ctx.launch.under_mpi ? std::vector<int>{ctx.gpus.front()} : ctx.gpus;
    if (!ctx.launch.under_mpi)
      if (std::string why = peer_access_problem(local); !why.empty()) return Usability::no(why);
    for (int d : local) {
      int coop = 0;
      GB_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, d));
      if (!coop) return Usability::no("GPU " + std::to_string(d) + " has no cooperative launch");
      GB_CUDA_CHECK(cudaSetDevice(d));
      if (Usability u = blocks_fit("occupancy", per_sm, static_cast<int>(threads), kernel); !u.ok)
        return u;
    }
    return Usability::yes();
  }
};

// What the numeric axes and the test hooks mean, for every device method's description (the
// categorical axes' values state their own meanings).
inline constexpr std::string_view kDeviceAxesHelp =
    "gpu_count 0 = all given; launch=graph runs one block per GPU (blocks_per_sm 1); the faults "
    "skip-wait and unordered (test hooks) report what the check caught per 10^6 crossings, not a "
    "latency";

// The method of algorithm A: A::info (its name, a sentence, its own axes), A::traits
// (frame/algorithm.cuh) and the rest from above.
template <DeviceAlgorithm A>
class DeviceBarrier final : public DeviceMethodBase {
 public:
  DeviceBarrier() : DeviceMethodBase(info()) {}

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return agree(ctx, check(ctx, p));
  }

  Verification verify(State& state) override {
    if (std::string why = hook_text(A::traits.unverified, state.point()); !why.empty())
      return Verification::not_verified(why);
    BarrierSession<A>& s = session(state);
    s.set_checking(true);
    return verify_crossings(s, rounds(state.point()));
  }

  std::vector<Measurement> measure(State& state) override {
    BarrierSession<A>& s = session(state);
    if (const Fault f = state.point().choice("fault", Fault::none); counted(f))
      return caught_rows(s.problems(), rounds(state.point()), static_cast<long>(f));
    s.set_checking(false);
    Measurement m = measure_crossings(state.ctx(), team_of(state), s);
    if (!s.note().empty()) m.note += "; " + s.note();
    return {m};
  }

 private:
  // A's info with the frame's axes before A's own and the device axes' help after its sentence.
  static MethodInfo info() {
    static const std::string text =
        std::string(A::info.description) + " " + std::string(kDeviceAxesHelp);
    std::vector<Axis> axes = common_axes();
    axes.push_back({"fault", {0}, faults::device_fault_names(Fault::absent_timing)});
    axes.push_back(launch_axis());
    MethodInfo info = framed(A::info, Level::multi_gpu, std::move(axes));
    info.description = text;
    return info;
  }
  // The faults whose rows are the check's counts instead of a latency.
  static bool counted(Fault fault) {
    return fault == Fault::skip_wait || fault == Fault::unordered;
  }
  static long rounds(const Point& p) {
    return p.choice("fault", Fault::none) == Fault::unordered ? kUnorderedRounds : kVerifyRounds;
  }
  static BarrierSession<A>& session(State& state) {
    return state.resource<BarrierSession<A>>(state.ctx(), team_of(state), state.point());
  }
  static Usability check(const RunContext& ctx, const Point& p) {
    const bool graph = launch_mode(p) == LaunchMode::graph;
    if (graph && p.at("blocks_per_sm") != 1)
      return Usability::no(
          "launch=1 runs one block per GPU: give blocks_per_sm 1 (it is not used), so that its "
          "rows are not repeated");
    const void* kernel = graph ? reinterpret_cast<const void*>(barrier_step_kernel<A>)
                               : ordered_barrier_kernel<A>(point_ordering(p));
    if (Usability u = launchable(ctx, p, kernel); !u.ok) return u;
    const Fault f = p.choice("fault", Fault::none);
    if (graph && f == Fault::unordered)
      return Usability::no(
          "fault=3 with launch=1: its 2^17 checked crossings would be one CUDA graph of 2^17 "
          "launches; use launch=0");
    const std::vector<int> gpus = point_gpus(ctx, p);
    // With one GPU the absent member is the only one: empty launches, "verified" over nothing.
    if ((f == Fault::absent || f == Fault::absent_timing) && gpus.size() < 2)
      return Usability::no("fault=" + std::to_string(static_cast<int>(f)) +
                           " keeps the last GPU out of the barriers: it needs 2 or more "
                           "GPUs (with one, no barrier is left to miss)");
    if (std::string why = hook_text(A::traits.infeasible, p); !why.empty())
      return Usability::no(why);
    if constexpr (A::traits.peer_atomics)
      if (std::string why = peer_atomics_problem(gpus); !why.empty()) return Usability::no(why);
    return Usability::yes();
  }
  // The GPUs of the point's team as ordinals of this node: every rank's in mpi mode, else the
  // first gpu_count given ones (all for 0).
  static std::vector<int> point_gpus(const RunContext& ctx, const Point& p) {
    if (ctx.launch.under_mpi) return ctx.rank_gpus;
    const auto n = static_cast<std::size_t>(p.get(kGpuCountAxis, 0));
    return {
        ctx.gpus.begin(),
        ctx.gpus.begin() + static_cast<long>(n > 0 && n < ctx.gpus.size() ? n : ctx.gpus.size())};
  }
};

}  // namespace gb::mg
