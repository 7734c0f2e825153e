// Warp-level synchronisation (the study (Zhang, Wahib, Zhang, Matsuoka), section 5.1 and Table 2):
// one timed kernel and one check kernel for every kind of group and action, and the Method that
// drives them. A warp method is one type in its own file under kernels/warp/ (tile_sync.cu,
// syncwarp.cu, ...):
//
//   struct MyWarpSync {
//     static inline const MethodInfo info{.name = "gpu.warp.<...>", .description = "...",
//                                         .timed = {...}};  // its frame adds level and axes
//     using Group = Tiles;   // who: a WarpGroupKind (warp/detail/warp_groups.cuh)
//     using Action = Sync;   // what they do: a WarpAction (warp/detail/warp_actions.cuh)
//   };
//   GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::MyWarpSync>)
//
// `info` is the method's MethodInfo (core/method.hpp) but its level and axes, the frame's; the
// concept WarpSync states these members: a type that lacks or misspells one, or whose group or
// action lacks one of theirs, is no warp method, and its registration does not compile.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "common/sm_throughput.cuh"
#include "common/stamp_check.cuh"
#include "core/stamp_check.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "runtime/timers.cuh"
#include "warp/detail/warp_actions.cuh"
#include "warp/detail/warp_groups.cuh"

namespace gb::warp_detail {

template <class W>
concept WarpSyncMembers = requires {
  { W::info } -> std::same_as<const MethodInfo&>;
  typename W::Group;
  typename W::Action;
};

template <class W>
concept WarpSync =
    WarpSyncMembers<W> && WarpGroupKind<typename W::Group> && WarpAction<typename W::Action>;

constexpr int kUnroll = 32;  // operations per loop trip: keeps loop overhead out of the figure
constexpr long kLatencyReps = 4096;
// Longer chains for throughput, so that the staggered start of the warps on an SM is noise.
constexpr long kThroughputReps = 16384;
constexpr int kCheckRounds = 256;

// The clock technique: each member runs a chain of `trips * kUnroll` operations between two
// clock reads; a shuffle passes its result on to the next one, so the chain is dependent.
// Lanes outside the group sit the chain out, as in the branch that formed the group.
// On sm_90 ptxas (CUDA 13) emits the syncs of a converged chain as NOPs behind at most one
// convergence check per loop trip (MATCH.ANY / VOTEU; WARPSYNC only on the diverged path), so a
// sync's figure is what converged code pays: about a cycle, with no WARPSYNC timed (its rows say
// "not timed: ...", core/timed_regions.hpp). A Split group (warp_groups.cuh) reaches every sync
// from two branches and so crosses the diverged path's WARPSYNC. A tile shuffle stays one SHFL.IDX;
// a coalesced one also finds its source lane (POPC, SGXT, ...) every time.
template <WarpGroupKind G, WarpAction A, int Tile>
__global__ void warp_timed(int group_size, long trips, WarpSpan* spans) {
  const unsigned lane = threadIdx.x % 32;
  unsigned v = lane;
  long long t0 = 0, t1 = 0;
  if (G::member(lane, group_size)) {
    auto g = G::template make<Tile>(group_size);
    const unsigned next = (g.thread_rank() + 1) % g.size();
    // A branch on what the chain uses, before the first clock read: ptxas would otherwise load and
    // compute it after the read, inside the timed region (cuobjdump -sass shows it). Never taken.
    if (trips < 1 || next >= 32) return;
    t0 = dev::sm_clock();
    for (long r = 0; r < trips; ++r) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v = A::step(g, v, next);
    }
    t1 = dev::sm_clock();
  }
  dev::record_span(spans, t0, t1, v);
}

// The study's section 8.1 (Fig. 17) plus stamp visibility, for one warp: records[round][lane],
// the rounds as the action checks them (warp_actions.cuh).
template <WarpGroupKind G, WarpAction A, int Tile>
__global__ void warp_check(int group_size, int rounds, StampRecord* records) {
  __shared__ unsigned stamps[dev::kStampSlots * 32];
  volatile unsigned* s = stamps;
  const unsigned lane = threadIdx.x % 32;
  for (int k = 0; k < dev::kStampSlots; ++k) s[k * 32 + lane] = 0;
  __syncwarp();
  if (!G::member(lane, group_size)) return;
  A::check(G::template make<Tile>(group_size), rounds, records + lane, s, lane);
}

struct WarpKernels {
  void (*timed)(int, long, WarpSpan*);
  void (*check)(int, int, StampRecord*);
};

// Tile sizes are template arguments; the other kinds take the size at run time (one instance).
template <WarpGroupKind G, WarpAction A>
WarpKernels select_kernels(int group_size) {
  return with_instance<G>(group_size, []<int Tile>(std::integral_constant<int, Tile>) {
    return WarpKernels{warp_timed<G, A, Tile>, warp_check<G, A, Tile>};
  });
}

struct Shape {
  int blocks_per_sm, threads_per_block;
};

// Every blocks/SM x threads/block pair of powers of two whose blocks are co-resident on an SM.
inline std::vector<Shape> resident_shapes(void (*kernel)(int, long, WarpSpan*)) {
  std::vector<Shape> shapes;
  for (int threads = 32; threads <= 1024; threads *= 2) {
    int fit = 0;
    GB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, threads, 0));
    for (int per_sm = 1; per_sm <= fit; per_sm *= 2) shapes.push_back({per_sm, threads});
  }
  return shapes;
}

template <WarpSync W>
class WarpMethod final : public Method {
  using G = typename W::Group;
  using A = typename W::Action;

 public:
  WarpMethod() : Method(framed(W::info, Level::warp, {{"group_size", G::sizes()}})) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }
  Usability feasible(const RunContext&, const Point& p) const override {
    const long k = p.at("group_size");
    if (k < 1 || k > 32) return Usability::no("group_size must be within 1..32 (one warp)");
    if (std::string why = G::misfit(k, 1); !why.empty()) return Usability::no(why);
    return Usability::yes();
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int k = static_cast<int>(p.at("group_size"));
    DeviceBuffer<StampRecord> records(static_cast<std::size_t>(kCheckRounds) * 32);
    select_kernels<G, A>(k).check<<<1, 32>>>(k, kCheckRounds, records.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    StampLayout layout{kCheckRounds, 32, std::vector<int>(32)};
    for (int lane = 0; lane < 32; ++lane) layout.clock_group[lane] = G::clock_group(lane, k);
    return check_stamps(records.to_host(), layout).verdict();
  }

  // Latency: one warp alone on the GPU. Throughput: the best over resident blocks/SM x
  // threads/block (the study's section 5.1), picked by a short pilot run of every shape and then
  // measured like any other figure; the note names the shape.
  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const int device = ctx.gpus.front();
    const int k = static_cast<int>(p.at("group_size"));
    const auto timed = select_kernels<G, A>(k).timed;
    const SmClock clock = measure_sm_clock(device);

    DeviceBuffer<WarpSpan> one(1);
    auto latency = [&] {
      timed<<<1, 32>>>(k, kLatencyReps / kUnroll, one.get());
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      const WarpSpan w = one.to_host()[0];
      return static_cast<double>(w.t1 - w.t0) / kLatencyReps;
    };
    std::vector<Measurement> rows = clock_technique(ctx, latency, clock, kLatencyReps);

    const int sms = multiprocessor_count(device);
    const std::vector<Shape> shapes = resident_shapes(timed);
    std::size_t most = 0;
    for (const Shape& s : shapes)
      most = std::max<std::size_t>(most, s.blocks_per_sm * warps_per_block(s.threads_per_block));
    DeviceBuffer<WarpSpan> spans(most * sms);
    auto rate_at = [&](Shape s) {
      const int blocks = s.blocks_per_sm * sms;
      timed<<<blocks, s.threads_per_block>>>(k, kThroughputReps / kUnroll, spans.get());
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<WarpSpan> host = spans.to_host();
      host.resize(static_cast<std::size_t>(blocks) * warps_per_block(s.threads_per_block));
      return sm_rate(host, kThroughputReps);
    };
    Shape best = shapes.front();
    double best_rate = 0;
    for (const Shape& s : shapes) {
      double pilot[3];
      for (double& x : pilot) x = rate_at(s).per_cycle;
      std::sort(pilot, pilot + 3);
      if (pilot[1] > best_rate) {
        best_rate = pilot[1];
        best = s;
      }
    }
    const std::string ops(A::ops);
    for (Measurement& m : sm_throughput(
             ctx, [&] { return rate_at(best); }, clock, kThroughputReps, ops)) {
      m.note += "; best of " + std::to_string(shapes.size()) +
                " shapes at blocks_per_sm=" + std::to_string(best.blocks_per_sm) +
                " threads_per_block=" + std::to_string(best.threads_per_block);
      rows.push_back(std::move(m));
    }
    return rows;
  }
};

}  // namespace gb::warp_detail
