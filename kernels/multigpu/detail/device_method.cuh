// The Method behind every device-side multi-GPU barrier: team and memory set-up, the stamp check
// and the differential timing are the same for all algorithms; each method file only names one.
// A library's barrier (multigpu/nccl_lsa.cu) brings its own kernel and session and reuses the
// rest: BarrierMemory, DeviceMethodBase, verify_crossings and measure_crossings.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/occupancy.cuh"
#include "core/cuda_check.hpp"
#include "core/techniques.hpp"
#include "multigpu/detail/barrier.cuh"
#include "multigpu/detail/hierarchy.hpp"
#include "multigpu/detail/host_shared.hpp"
#include "multigpu/detail/peer_memory.hpp"
#include "multigpu/detail/team.hpp"
#include "topology/nvlink_groups.hpp"

namespace gb::mg {

inline constexpr long kVerifyRounds = 16;
inline constexpr std::uint64_t kLateNs = 20000;  // far above any barrier's latency

// blocks_per_sm on every SM: the grid of the persistent kernel on each GPU.
inline int blocks_per_gpu(const Team& team, const Point& p) {
  int sms = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(0)));
  return static_cast<int>(p.at("blocks_per_sm")) * sms;
}

// Every member's mailbox (followed by its per-block stamps while verifying) in that member's own
// memory, the kernel arguments over it that every algorithm shares, and the number of barriers
// crossed on it so far: its words only grow, so each launch goes on from the last one's epoch.
class BarrierMemory {
 public:
  // Collective.
  BarrierMemory(const RunContext& ctx, const Team& team, const Point& p, int blocks, bool verify)
      : ctx_(ctx),
        team_(team),
        mem_(team, slots_offset(blocks) + sizeof(Word) * static_cast<std::size_t>(team.size()) *
                                              static_cast<std::size_t>(blocks)) {
    for (int l = 0; l < team.local_count(); ++l) {
      BarrierArgs a;
      a.slots_offset = slots_offset(blocks);
      for (int m = 0; m < team.size(); ++m) {
        auto* base = static_cast<char*>(mem_.at(l, m));
        a.box[m] = reinterpret_cast<Mailbox*>(base);
        if (verify) a.stamps[m] = reinterpret_cast<unsigned*>(base + sizeof(Mailbox));
      }
      a.member = team.member(l);
      a.members = team.size();
      a.ordering = static_cast<Ordering>(p.at("ordering"));
      a.fault = static_cast<Fault>(p.get("fault", 0));
      a.watchdog_ns = static_cast<std::uint64_t>(ctx.options.watchdog_s * 1e9);
      a.late_ns = verify ? kLateNs : 0;
      args_.push_back(a);
    }
  }

  // Mailbox, then one stamp per block, then (8-byte aligned) the slots of Algo::slots.
  static std::size_t slots_offset(int blocks) {
    const std::size_t end = sizeof(Mailbox) + static_cast<std::size_t>(blocks) * sizeof(unsigned);
    return (end + alignof(Word) - 1) / alignof(Word) * alignof(Word);
  }

  // Local member l's arguments; run() sets reps and epoch0.
  BarrierArgs& args(int local) { return args_[local]; }

  // `reps` crossings on every GPU of the team: launch(l, args) starts local member l's kernel and
  // waits for it. Seconds from the first launch to the last wait.
  double run(long reps, const std::function<void(int local, BarrierArgs& args)>& launch) {
    for (auto& a : args_) {
      a.reps = reps;
      a.epoch0 = epoch_;
    }
    const auto t0 = std::chrono::steady_clock::now();
    team_.parallel([&](int l) { launch(l, args_[l]); });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    epoch_ += static_cast<Word>(reps);
    return seconds;
  }

  // {stale stamps, expired spins} of the whole team so far (the largest per rank in mpi mode).
  std::vector<double> problems() const {
    std::vector<double> sums{0, 0};
    for (int l = 0; l < team_.local_count(); ++l) {
      unsigned v[2] = {};
      GB_CUDA_CHECK(cudaSetDevice(team_.device(l)));
      auto* self = static_cast<char*>(mem_.own(l));
      GB_CUDA_CHECK(
          cudaMemcpy(&v[0], self + offsetof(Mailbox, stale), sizeof v[0], cudaMemcpyDeviceToHost));
      GB_CUDA_CHECK(cudaMemcpy(&v[1], self + offsetof(Mailbox, timeouts), sizeof v[1],
                               cudaMemcpyDeviceToHost));
      sums[0] += v[0];
      sums[1] += v[1];
    }
    ctx_.max_over_ranks(sums);
    return sums;
  }

 private:
  const RunContext& ctx_;
  const Team& team_;
  PeerMemory mem_;
  std::vector<BarrierArgs> args_;
  Word epoch_ = 0;
};

// One configuration of algorithm A on this process's GPUs: the memory and its kernel arguments.
template <Algo A>
class BarrierSession {
 public:
  BarrierSession(const RunContext& ctx, const Team& team, const Point& p, bool verify)
      : ctx_(ctx),
        team_(team),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(blocks_per_gpu(team, p)),
        mem_(ctx, team, p, blocks_, verify) {
    if constexpr (A == Algo::hostflags)
      host_ = std::make_unique<HostShared>(team, sizeof(HostFlags));
    std::vector<std::vector<int>> nvlink;
    if (ctx.topology) nvlink = topo::nvlink_groups(*ctx.topology);
    groups_ = member_groups(team.topology_index(), nvlink);
    for (int l = 0; l < team.local_count(); ++l) {
      BarrierArgs& a = mem_.args(l);
      if (host_) a.host = static_cast<HostFlags*>(host_->device_view(l));
      const Hierarchy h = hierarchy_of(groups_, a.member);
      a.group_size = static_cast<int>(h.group.size());
      for (int i = 0; i < a.group_size; ++i) a.group[i] = h.group[i];
      a.leader_count = static_cast<int>(h.leaders.size());
      for (int i = 0; i < a.leader_count; ++i) a.leaders[i] = h.leaders[i];
    }
  }

  // `reps` crossings on every GPU of the team; seconds from the first launch to the last wait.
  double run(long reps) {
    return mem_.run(reps, [&](int l, BarrierArgs& a) {
      void* params[] = {&a};
      GB_CUDA_CHECK(
          cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(multigpu_barrier_kernel<A>),
                                      blocks_, threads_, params, 0, team_.stream(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(l)));
    });
  }

  std::vector<double> problems() const { return mem_.problems(); }
  std::string timeout_detail() const {
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU never reached the barrier";
  }
  int blocks() const { return blocks_; }
  // "groups 0,1|2,3": who gathers where in the hierarchical barrier.
  std::string groups_note() const {
    std::string s = "groups ";
    std::vector<int> seen;
    for (std::size_t m = 0; m < groups_.size(); ++m) {
      if (std::find(seen.begin(), seen.end(), groups_[m]) != seen.end()) continue;
      seen.push_back(groups_[m]);
      if (seen.size() > 1) s += '|';
      const Hierarchy h = hierarchy_of(groups_, static_cast<int>(m));
      for (std::size_t i = 0; i < h.group.size(); ++i)
        s += (i ? "," : "") + std::to_string(h.group[i]);
    }
    return s;
  }

 private:
  const RunContext& ctx_;
  const Team& team_;
  int threads_;
  int blocks_;
  BarrierMemory mem_;
  std::unique_ptr<HostShared> host_;
  std::vector<int> groups_;
};

// The stamp check of a session S (run(reps), problems(), timeout_detail()): kVerifyRounds
// crossings, then every block's view of every other block's stamp.
template <class S>
Verification verify_crossings(S& session) {
  session.run(kVerifyRounds);
  const std::vector<double> bad = session.problems();
  if (bad[1] > 0) return Verification::timed_out(session.timeout_detail());
  if (bad[0] > 0)
    return Verification::failed(std::to_string(static_cast<long>(bad[0])) +
                                " stale stamps seen after the barrier");
  return Verification::passed();
}

// The differential latency of a session S (also blocks()), noted "<n> GPUs x <b> blocks".
template <class S>
Measurement measure_crossings(const RunContext& ctx, const Team& team, S& session) {
  auto run = [&](long reps) {
    const double seconds = session.run(reps);
    if (session.problems()[1] > 0)
      throw Error(session.timeout_detail() + " while timing " + std::to_string(reps) +
                  " crossings");
    return seconds;
  };
  Measurement m = differential(ctx, run);
  m.note = std::to_string(team.size()) + " GPUs x " + std::to_string(session.blocks()) + " blocks";
  return m;
}

// What every device-side multi-GPU method shares, whoever provides the barrier: a persistent
// cooperative kernel per GPU of one node, peers reached over NVLink/PCIe, threads or mpi mode.
class DeviceMethodBase : public Method {
 public:
  Level level() const override { return Level::multi_gpu; }
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.peer_access = true;
    r.threads_mode = true;
    r.mpi_mode = true;
    return r;
  }

  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    if (Usability u = team_usable(ctx, requirements()); !u.ok) return u;
    if (ctx.launch.nodes > 1)
      return Usability::no("device-side barriers reach peers over NVLink/PCIe: one node only");
    return Usability::yes();
  }

 protected:
  // Whether `kernel` can run one configuration: gpu_count, the block shape, ordering, the team's
  // size, peer access, and every block co-resident on every local GPU (cooperative launch).
  static Usability launchable(const RunContext& ctx, const Point& p, const void* kernel) {
    if (Usability u = team_feasible(ctx, p); !u.ok) return u;
    const long per_sm = p.at("blocks_per_sm"), threads = p.at("threads_per_block");
    if (per_sm < 1 || threads < 32 || threads > 1024)
      return Usability::no("needs blocks_per_sm >= 1 and 32..1024 threads_per_block");
    if (const long o = p.at("ordering"); o != 0 && o != 1)
      return Usability::no("ordering: 0 = release/acquire per signal, 1 = relaxed + fences");
    const int members = ctx.launch.under_mpi ? ctx.launch.size : static_cast<int>(ctx.gpus.size());
    if (members > kMaxMembers)
      return Usability::no("at most " + std::to_string(kMaxMembers) + " GPUs");
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

template <Algo A>
class DeviceBarrierMethod : public DeviceMethodBase {
 public:
  std::vector<Axis> axes() const override {
    return {{kGpuCountAxis, {0}},
            {"blocks_per_sm", {1, 4}},
            {"threads_per_block", {128, 256}},
            {"ordering", {0, 1}},
            {"fault", {0}}};
  }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return agree(ctx, check(ctx, p));
  }

  Verification verify(RunContext& ctx, const Point& p) override {
    const Team team(ctx, p);
    BarrierSession<A> session(ctx, team, p, true);
    return verify_crossings(session);
  }

  std::vector<Measurement> measure(RunContext& ctx, const Point& p) override {
    const Team team(ctx, p);
    BarrierSession<A> session(ctx, team, p, false);
    Measurement m = measure_crossings(ctx, team, session);
    if constexpr (A == Algo::hierarchical) m.note += "; " + session.groups_note();
    return {m};
  }

 private:
  static Usability check(const RunContext& ctx, const Point& p) {
    const auto* kernel = reinterpret_cast<const void*>(multigpu_barrier_kernel<A>);
    if (Usability u = launchable(ctx, p, kernel); !u.ok) return u;
    if (const long f = p.get("fault", 0); f < 0 || f > 2)
      return Usability::no("fault: 0 = none, 1 = skip the wait, 2 = last GPU absent");
    return Usability::yes();
  }
};

// The axes' meaning, for every device method's description.
inline constexpr const char* kDeviceAxesHelp =
    "gpu_count 0 = all given; ordering 0 = release/acquire per signal, 1 = relaxed + fences; "
    "fault (test hook) 0 = none, 1 = skip the wait, 2 = last GPU absent";

}  // namespace gb::mg
