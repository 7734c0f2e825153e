// multigpu.floor.signal: the one-way latency of a flag written by one GPU into another's memory
// and seen there, the floor under every device-side barrier across GPUs: a barrier needs at
// least one such signal per crossing. Measured as ping-pong between one thread on each GPU of a
// pair (the round trip halved), for every pair of the given GPUs, so that the topology shows
// (one row per pair, its gpu_ids the pair). Differential technique: R_hi and R_lo round trips
// per launch, T = (L_hi - L_lo) / (2 (R_hi - R_lo)).
//
// The ordering axis is how the flag is written and read: 0 relaxed system-scope atomics,
// 1 volatile, 2 volatile with __threadfence_system() before each store (one fence per hop: the
// fence that orders a receiver's reads after the flag is the one before its answer),
// 3 release store / acquire load at system scope (what a barrier that publishes data needs),
// 4 relaxed system-scope atomics with an acq_rel system-scope fence (fence.acq_rel, MEMBAR.ALL)
// before each store, where 2 has __threadfence_system() (fence.sc, MEMBAR.SC): the floor of
// the device barriers' ordering 2 as 2 is of their ordering 1.
//
// The floor is the cheapest correct signal, so two more axes try the ways a correct signal can
// be cheaper: `word` the flag's width (64 or 32 bits) and `poll` how the wait loop checks its
// watchdog (0: the project's spin budget, which counts every poll and reads the clock every 64;
// 1: 64 bare polls between two checks, so that the poll loop holds the load and the compare and
// nothing else). Every variant keeps a watchdog, so none can hang. `report floor` takes the
// lowest of them for each ordering and names the one that gave it. Two diagnostic axes: `timing`
// 1 reads the initiator's %globaltimer around its round trips instead of the host's clock around
// the launches (a second technique, to show the figure is not the timing's), and `place` moves
// the flags to another 128-byte line of each GPU's allocation.
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/watchdog.cuh"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "multigpu/frame/orderings.hpp"
#include "runtime/peer_memory.hpp"
#include "runtime/team.hpp"

namespace gb {
namespace {

enum class Ordering {
  relaxed = 0,
  volatile_plain = 1,
  volatile_fenced = 2,
  release_acquire = 3,
  relaxed_acq_rel_fenced = 4
};
constexpr const char* kOrderingNames[] = {"relaxed", "volatile", "volatile+fence",
                                          "release/acquire", "relaxed+acq_rel fence"};
// Flags of different pairs in different 128-byte lines, so no pair sees another's traffic.
constexpr std::size_t kLine = 128;
// Axis `place`: the flags of place k lie k * members lines into each GPU's allocation, so that a
// run can show how the one-way latency depends on where a flag lands in the GPU's L2 (which
// slice and partition its address maps to). place=0 is the layout of every earlier run.
constexpr long kPlaces = 64;

template <class Word>
__device__ void signal(Word* p, Word v, Ordering o) {
  cuda::atomic_ref<Word, cuda::thread_scope_system> a(*p);
  switch (o) {
    case Ordering::relaxed_acq_rel_fenced:
      cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system);
      [[fallthrough]];
    case Ordering::relaxed:
      a.store(v, cuda::memory_order_relaxed);
      break;
    case Ordering::volatile_fenced:
      __threadfence_system();
      [[fallthrough]];
    case Ordering::volatile_plain:
      *static_cast<volatile Word*>(p) = v;
      break;
    case Ordering::release_acquire:
      a.store(v, cuda::memory_order_release);
      break;
  }
}

template <class Word>
__device__ Word observe(Word* p, Ordering o) {
  cuda::atomic_ref<Word, cuda::thread_scope_system> a(*p);
  switch (o) {
    case Ordering::relaxed:
    case Ordering::relaxed_acq_rel_fenced:
      return a.load(cuda::memory_order_relaxed);
    case Ordering::volatile_plain:
    case Ordering::volatile_fenced:
      return *static_cast<volatile Word*>(p);
    case Ordering::release_acquire:
      break;
  }
  return a.load(cuda::memory_order_acquire);
}

enum class Poll { budget = 0, bare = 1 };
enum class Timing { differential = 0, globaltimer = 1 };
constexpr int kBarePolls = 64;  // polls between two watchdog checks in Poll::bare

// Waits until observe(p) >= want; false once the watchdog expired (or another spinner gave up).
template <Poll P, class Word>
__device__ bool wait_for(Word* p, Word want, Ordering o, const WatchdogArgs& watchdog) {
  dev::Spin spin = dev::spin_budget(watchdog);  // a budget per wait, not per launch
  if constexpr (P == Poll::budget) {
    return dev::spin_until(spin, [&] { return observe(p, o) >= want; });
  } else {
    for (;;) {
#pragma unroll 1
      for (int i = 0; i < kBarePolls; ++i)
        if (observe(p, o) >= want) return true;
      for (int i = 0; i < kBarePolls; ++i)  // the budget counts polls: these were 64 of them
        if (spin.expired()) return false;
    }
  }
}

// One launch of one side of the ping-pong. `base` continues the values of earlier launches on the
// same flags (they only grow; a 32-bit flag wraps after 2^31 round trips, far beyond any run).
struct PingArgs {
  void* mine;  // this GPU's flag, written by the peer
  void* peer;  // the peer's flag, written by this GPU
  long reps;
  unsigned long long base;
  Ordering ordering;
  bool initiator;
  WatchdogArgs watchdog;
  unsigned long long* elapsed_ns;  // timing=1: the initiator's %globaltimer span of its reps
};

// One thread. The initiator sends odd values and waits for the even answer; the other answers.
template <class Word, Poll P>
__global__ void ping_pong(const PingArgs x) {
  const Ordering o = x.ordering;
  Word* mine = static_cast<Word*>(x.mine);
  Word* peer = static_cast<Word*>(x.peer);
  const std::uint64_t t0 = dev::global_ns();
  for (long r = 0; r < x.reps; ++r) {
    const Word ping = static_cast<Word>(x.base + 2 * static_cast<unsigned long long>(r) + 1),
               pong = ping + 1;
    if (x.initiator) signal(peer, ping, o);
    if (!wait_for<P>(mine, x.initiator ? pong : ping, o, x.watchdog)) return;
    if (!x.initiator) signal(peer, pong, o);
  }
  if (x.initiator && x.elapsed_ns) *x.elapsed_ns = dev::global_ns() - t0;
}

// The kernel of one (word, poll) variant.
using Launcher = void (*)(const PingArgs&, cudaStream_t);
template <class Word, Poll P>
void launch_ping_pong(const PingArgs& x, cudaStream_t s) {
  ping_pong<Word, P><<<1, 1, 0, s>>>(x);
}
Launcher launcher(long word_bits, Poll poll) {
  if (word_bits == 32)
    return poll == Poll::bare ? launch_ping_pong<unsigned, Poll::bare>
                              : launch_ping_pong<unsigned, Poll::budget>;
  return poll == Poll::bare ? launch_ping_pong<unsigned long long, Poll::bare>
                            : launch_ping_pong<unsigned long long, Poll::budget>;
}

class FloorSignal final : public Method {
 public:
  FloorSignal()
      : Method({.name = "multigpu.floor.signal",
                .level = Level::multi_gpu,
                .description =
                    "one-way NVLink/PCIe flag latency (ping-pong / 2, one thread per GPU) between "
                    "every pair of the given GPUs, one row per pair; word = the flag's bits (64, "
                    "32); place = which 128-byte line holds the flags (0..63)",
                .axes = method_axes()}) {}
  static std::vector<Axis> method_axes() {
    // Named as the device barriers' orderings where a barrier's ordering has this signal as
    // its floor (release-acquire, seq-cst-fence, acq-rel-fence: gpubarrier_tools/analysis/floor.py pairs them).
    return {
        {"ordering",
         {0, 1, 2, 3, 4},
         {{Ordering::relaxed, "relaxed", "signals are relaxed system-scope atomics with no fence"},
          {Ordering::volatile_plain, "volatile",
           "signals are volatile stores and loads with no fence"},
          {Ordering::volatile_fenced, mg::orderings::seq_cst_fence},
          {Ordering::release_acquire, mg::orderings::release_acquire},
          {Ordering::relaxed_acq_rel_fenced, mg::orderings::acq_rel_fence}}},
        {"word", {64}},
        {"poll",
         {0},
         {{Poll::budget, "spin-budget",
           "the project's spin budget: every poll counted, the clock read every 64 polls"},
          {Poll::bare, "bare-polls",
           "64 bare polls (a load and a compare) between two watchdog checks"}}},
        {"place", {0}},
        {"timing",
         {0},
         {{Timing::differential, "differential",
           "the host's clock around two launches of different lengths, their difference per "
           "crossing"},
          {Timing::globaltimer, "globaltimer",
           "the initiating GPU's %globaltimer around its round trips"}}}};
  }
  Requirements requirements() const override {
    Requirements r = Requirements::gpu_team(true, false);
    r.min_gpus = 2;
    r.peer_access = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    return mg::team_usable(ctx, requirements());
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (const long w = p.get("word", 64); w != 32 && w != 64)
      return Usability::no("word: the flag's bits, 32 or 64");
    if (const long place = p.get("place", 0); place < 0 || place >= kPlaces)
      return Usability::no("place: which of " + std::to_string(kPlaces) +
                           " 128-byte lines of each GPU's allocation holds the flags, 0.." +
                           std::to_string(kPlaces - 1));
    if (std::string why = mg::peer_access_problem(ctx.gpus); !why.empty())
      return Usability::no(why);
    return Usability::yes();
  }

  std::vector<Measurement> measure(State& state) override {
    const RunContext& ctx = state.ctx();
    const mg::Team& team = mg::team_of(state);
    const int n = team.local_count();
    // Member i's flag from member j: line j of member i's allocation.
    const Point& p = state.point();
    const auto first = static_cast<std::size_t>(p.get("place", 0) * n);
    const mg::PeerMemory flags(team, kLine * static_cast<std::size_t>(kPlaces * n));
    auto flag = [&](int seen_by_local, int owner, int from) {
      return static_cast<void*>(static_cast<char*>(flags.at(seen_by_local, owner)) +
                                kLine * (first + static_cast<std::size_t>(from)));
    };
    const Variant v{p.choice<Ordering>("ordering"), p.get("word", 64),
                    p.choice("poll", Poll::budget), p.get("place", 0),
                    p.choice("timing", Timing::differential)};
    std::vector<Measurement> rows;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        rows.push_back(
            pair(ctx, team, a, b, {flag(a, a, b), flag(a, b, a), flag(b, b, a), flag(b, a, b)}, v));
    return rows;
  }

 private:
  struct Variant {
    Ordering ordering;
    long word;
    Poll poll;
    long place;
    Timing timing;
  };
  // The pair's flags: a's flag from b as a and b see it (a_mine, b_peer), and b's from a.
  struct Flags {
    void *a_mine, *a_peer, *b_mine, *b_peer;
  };
  // The pair (a, b) of local members.
  static Measurement pair(const RunContext& ctx, const mg::Team& team, int a, int b, Flags f,
                          Variant v) {
    const Launcher launch = launcher(v.word, v.poll);
    GB_CUDA_CHECK(cudaSetDevice(team.device(a)));
    const DeviceWatchdog watch_a(ctx);
    const DeviceBuffer<unsigned long long> elapsed(1);  // on GPU a, the initiator's
    GB_CUDA_CHECK(cudaSetDevice(team.device(b)));
    const DeviceWatchdog watch_b(ctx);
    unsigned long long base = 0;
    auto run = [&](long reps) {
      const auto t0 = std::chrono::steady_clock::now();
      GB_CUDA_CHECK(cudaSetDevice(team.device(b)));
      launch({f.b_mine, f.b_peer, reps, base, v.ordering, false, watch_b.args(), nullptr},
             team.stream(b));
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaSetDevice(team.device(a)));
      launch({f.a_mine, f.a_peer, reps, base, v.ordering, true, watch_a.args(), elapsed.get()},
             team.stream(a));
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(a)));
      GB_CUDA_CHECK(cudaSetDevice(team.device(b)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(b)));
      base += 2 * static_cast<unsigned long long>(reps);
      const std::string where = "ping-pong between GPUs " + std::to_string(team.device(a)) +
                                " and " + std::to_string(team.device(b));
      watch_a.throw_if_tripped(where);
      watch_b.throw_if_tripped(where);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const long hi = ctx.options.reps_hi;
    Measurement m;
    try {
      if (v.timing == Timing::globaltimer) {
        // The device's own clock around reps_hi round trips on the initiator: no launch, no host
        // wait inside the span, so it needs no differential.
        GB_CUDA_CHECK(cudaSetDevice(team.device(a)));
        Samples s = adaptive_samples(ctx, [&] {
          run(hi);
          GB_CUDA_CHECK(cudaSetDevice(team.device(a)));
          return static_cast<double>(elapsed.to_host()[0]) / (2.0 * static_cast<double>(hi));
        });
        m = median_figure(std::move(s.values), Metric::one_way_latency, "ns",
                          Technique::globaltimer, s.stop);
        m.reps_lo = m.reps_hi = hi;
      } else {
        // A round trip is two one-way signals: half of each launch's time, per round trip.
        m = differential(ctx, [&](long reps) { return run(reps) / 2.0; });
        m.metric = Metric::one_way_latency;
      }
    } catch (const WatchdogTimeout& e) {
      m = timeout_measurement(
          Metric::one_way_latency, "ns",
          v.timing == Timing::globaltimer ? Technique::globaltimer : Technique::differential,
          e.what());
    }
    m.gpus = {team.device(a), team.device(b)};
    m.note += (m.note.empty() ? "" : "; ") +
              std::string(kOrderingNames[static_cast<int>(v.ordering)]) +
              (v.word == 32 ? ", 32-bit flag" : "") + (v.poll == Poll::bare ? ", bare polls" : "") +
              (v.place ? ", place " + std::to_string(v.place) : "") + ", GPUs " +
              std::to_string(team.device(a)) + " <-> " + std::to_string(team.device(b));
    return m;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::FloorSignal)
