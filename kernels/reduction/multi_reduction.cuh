// What every multi-GPU reduction shares (the study (Zhang, Wahib, Zhang, Matsuoka), Fig.
// 16): one double array of `bytes` bytes in all (the axis is the whole array, so that gpu_count 1
// and N of one size sum the same data and gpubarrier_tools/cli/model.py's crossing compares like with like), split
// into contiguous shares, one per GPU of the team (bytes / gpu_count each); the exact sum of the
// whole array; the check of member 0's result against it; and the figures: latency of one whole
// reduction (host-loop: a step is one reduction on every member, the slowest member's time) and the
// bandwidth of the whole array. Axis cache: 0 (cold, the default) evicts every GPU's L2 before
// every step, outside the timed span (common/l2_evict.hpp); 1 (warm) does not. A method brings a
// Session (built once per point, collectively):
//   Session(const RunContext&, const mg::Team&, Shares&, const Point&);
//   void reduce(int local);  one whole reduction as local member `local`, inside the team's
//                            parallel region: the share's sum, the meeting, member 0's total into
//                            shares.input(local).out. It meets the other members, so its own
//                            fallible work goes through team.guard().
//   std::string expired() const;  non-empty: a device-side wait gave up (a session with no such
//                            wait returns empty)
//   std::string note() const;  for the rows
// The concept ReductionSession states these members, every one required, so that a misspelt one
// is a missing one and does not compile.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/event_timing.hpp"
#include "common/l2_evict.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "core/watchdog.hpp"
#include "reduction/grid_sum.cuh"
#include "reduction/input.cuh"
#include "runtime/peer_memory.hpp"
#include "runtime/team.hpp"
#include "runtime/team_host_loop.hpp"

namespace gb::reduction {

// The team's shares of one point: each local member's Input (its elements of the array, on its
// GPU) and the per-block partial sums of its cooperative grid.
class Shares {
 public:
  Shares(const mg::Team& team, long bytes) : total_(static_cast<std::uint64_t>(bytes) / 8) {
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      const auto m = static_cast<std::uint64_t>(team.member(l));
      const auto members = static_cast<std::uint64_t>(team.size());
      const std::uint64_t first = total_ * m / members, last = total_ * (m + 1) / members;
      inputs_.push_back(std::make_unique<Input>(last - first, first));
      blocks_.push_back(resident_blocks(grid_sum_kernel<double>, kThreads));
      partials_.push_back(std::make_unique<DeviceBuffer<double>>(blocks_.back()));
    }
    if (team.member(0) == 0) exact_ = reference_sum(0, total_);
  }

  Input& input(int local) const { return *inputs_[local]; }
  double* partials(int local) const { return partials_[local]->get(); }
  int blocks(int local) const { return blocks_[local]; }
  std::uint64_t total() const { return total_; }
  // The exact sum of the whole array, where member 0 lives (elsewhere 0).
  long double exact() const { return exact_; }

  // Enqueues the share's sum of local member `local` into *dst (its own memory or a peer's).
  void launch_share_sum(int local, double* dst, cudaStream_t stream) const {
    const Input& in = *inputs_[local];
    launch_grid_sum(in.data.get(), in.n, partials(local), dst, blocks_[local], kThreads, stream);
  }

 private:
  std::uint64_t total_;
  long double exact_ = 0;
  std::vector<std::unique_ptr<Input>> inputs_;
  std::vector<int> blocks_;
  std::vector<std::unique_ptr<DeviceBuffer<double>>> partials_;
};

// One slot per member in member 0's memory, which every member writes over peer access (threads
// mode) or CUDA IPC (mpi mode): where the partial results meet (the study's Fig. 13).
class Slots {
 public:
  explicit Slots(const mg::Team& team) : team_(team), mem_(team, team.size() * sizeof(double)) {}
  // Member 0's slot array as local member `local`'s GPU addresses it.
  double* at(int local) const { return static_cast<double*>(mem_.at(local, 0)); }
  // Local member `local`'s own slot in it.
  double* mine(int local) const { return at(local) + team_.member(local); }

 private:
  const mg::Team& team_;
  mg::PeerMemory mem_;
};

// Enqueues member 0's total of its slots (`slots`: Slots::at of member 0) into `out`, one warp.
inline void launch_total(const double* slots, int members, double* out, cudaStream_t stream) {
  total_kernel<double><<<1, 32, 0, stream>>>(slots, static_cast<std::uint64_t>(members), out);
  GB_CUDA_CHECK(cudaGetLastError());
}

inline std::vector<Axis> multi_axes(std::vector<Axis> extra) {
  std::vector<Axis> a{{kGpuCountAxis, {0}}};
  a.insert(a.end(), extra.begin(), extra.end());
  a.push_back({"bytes", default_bytes()});
  a.push_back(cache_axis());
  return a;
}

template <class S>
concept ReductionSession =
    std::constructible_from<S, const RunContext&, const mg::Team&, Shares&, const Point&> &&
    requires(S& session, const S& done, int local) {
  session.reduce(local);
  { done.expired() } -> std::same_as<std::string>;
  { done.note() } -> std::same_as<std::string>;
};

template <ReductionSession Session>
class MultiReduction : public Method {
 public:
  using Method::Method;
  Usability usable(const RunContext& ctx) const override {
    if (ctx.visible_gpus == 0) return Usability::no("no CUDA GPU visible: " + ctx.no_gpu_reason);
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    if (Usability u = mg::team_usable(ctx, requirements()); !u.ok) return u;
    if (ctx.launch.nodes > 1) return Usability::no("one node only (peers over NVLink/PCIe)");
    return Usability::yes();
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return mg::agree(ctx, check(ctx, p));
  }

  Verification verify(State& state) override {
    const mg::Team& team = mg::team_of(state);
    Run& run = this->run(state);
    team.parallel([&](int l) {
      if (team.member(l) == 0) team.guard(l, [&] { run.shares.input(l).out.zero(); });
    });
    team.parallel([&](int l) { run.session.reduce(l); });
    std::vector<double> error{0};
    team.parallel([&](int l) {
      if (team.member(l) != 0) return;
      team.guard(l, [&] {
        const double e = relative_error(run.shares.input(l).out.to_host()[0], run.shares.exact());
        error[0] = std::isfinite(e) ? e : std::numeric_limits<double>::infinity();
      });
    });
    state.ctx().max_over_ranks(error);
    run.error = error[0];
    if (const std::string why = run.session.expired(); !why.empty())
      return Verification::timed_out(why);
    return sum_verdict(run.error);
  }

  std::vector<Measurement> measure(State& state) override {
    const mg::Team& team = mg::team_of(state);
    Run& run = this->run(state);
    std::vector<int> devices;
    for (int l = 0; l < team.local_count(); ++l) devices.push_back(team.device(l));
    const CachePolicy& cache = cache_policy(state, devices);
    std::function<void(int)> evict;  // untimed, before every step (a guarded prelude)
    if (cache.cold())
      evict = [&](int l) { team.guard(l, [&] { cache.evict(l, team.stream(l)); }); };
    Measurement lat = mg::team_host_loop(
        state.ctx(), team, [&](int l) { run.session.reduce(l); }, evict);
    if (const std::string why = run.session.expired(); !why.empty())
      return {
          timeout_measurement(Metric::latency, "ns", Technique::host_loop, why + " while timing")};
    Measurement bw =
        bandwidth_of(lat.samples, static_cast<double>(run.shares.total()) * sizeof(double),
                     Metric::bandwidth, "GB/s", lat.technique, lat.stop);
    std::string note = error_note(run.error) + "; " + std::to_string(team.size()) + " GPUs x " +
                       std::to_string(run.shares.blocks(0)) + " blocks of " +
                       std::to_string(kThreads) + " threads";
    note += "; " + run.session.note();
    note += "; " + cache.note(team.size());
    lat.note = bw.note = note;
    return {lat, bw};
  }

 protected:
  // The method's own checks of a point (its extra axes), after the common ones.
  virtual Usability point_feasible(const RunContext&, const Point&) const {
    return Usability::yes();
  }

 private:
  struct Run {
    Run(const RunContext& ctx, const mg::Team& team, const Point& p)
        : shares(team, p.at("bytes")), session(ctx, team, shares, p) {}
    Shares shares;
    Session session;
    double error = 0;
  };
  static Run& run(State& state) {
    return state.resource<Run>(state.ctx(), mg::team_of(state), state.point());
  }

  Usability check(const RunContext& ctx, const Point& p) const {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    const long bytes = p.at("bytes");
    if (const char* why = bytes_refusal(bytes)) return Usability::no(why);
    const long members =
        ctx.launch.under_mpi ? ctx.launch.size : static_cast<long>(ctx.gpus.size());
    if (bytes / 8 < members)
      return Usability::no("bytes=" + std::to_string(bytes) + " leaves a GPU without a double");
    const std::vector<int> local =
        ctx.launch.under_mpi ? std::vector<int>{ctx.gpus.front()} : ctx.gpus;
    if (requirements().peer_access && !ctx.launch.under_mpi)
      if (std::string why = mg::peer_access_problem(local); !why.empty()) return Usability::no(why);
    for (int d : local) {
      GB_CUDA_CHECK(cudaSetDevice(d));
      const auto evict = static_cast<long>(cache_memory(p, d));
      if (Usability u = fits_in_memory(bytes / members + evict, 1); !u.ok) return u;
    }
    return point_feasible(ctx, p);
  }
};

}  // namespace gb::reduction
