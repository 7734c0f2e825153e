// The frame shared by the grid-level barrier methods (the study (Zhang, Wahib, Zhang, Matsuoka),
// sections 5.3 and 9.4, the heat map of the workshop version's Fig. 8): one timed kernel and one
// stamp check per barrier, a cooperative launch, occupancy-based feasibility and the differential
// technique. A barrier is a policy:
//
//   struct Barrier {
//     static inline const MethodInfo info{.name = "gpu.grid.<...>",
//                                         .description = "..."};  // the frame: level, axes
//     static constexpr Traits traits{.interruptible = true};  // what the frame must know of it
//     static std::size_t state_words(int blocks);      // device words, zero before the first run
//     static void init_state(unsigned* state, int blocks, int threads);  // host: before the
//                                                      // first launch on zeroed words (ZeroState:
//                                                      // nothing, zeros are the start)
//     class Block {                                    // one per block, made by all its threads
//      public:
//       __device__ Block(unsigned* state, const WatchdogArgs& watchdog);
//       __device__ bool sync();                        // false: the watchdog gave up
//     };
//   };
//
// `info` is the method's MethodInfo (core/method.hpp) and `traits` the frame's Traits
// (grid/detail/traits.hpp), both
// written with designated initializers, so that a misspelt field does not compile and an unnamed
// one is its default. The concept GridBarrier states the members: a type that lacks or misspells
// one, or whose Block cannot be made from (state, watchdog) or has no `bool sync()`, is no grid
// barrier, and its registration does not compile.
//
// Software barriers are launched cooperatively too: the launch then refuses a grid whose blocks
// cannot all be resident at once, the precondition of any grid barrier, instead of deadlocking.
// Beside a background copy (axis background) an interruptible one is launched plainly instead,
// since a cooperative launch may wait for the copy to end (measure() says why).
// A clustered barrier (clustered) gets a cluster_size axis and sm_90: its grid, the same
// blocks_per_sm x SMs blocks, is launched with cudaLaunchKernelEx and a cluster dimension, which
// a cooperative launch does not take, so feasible() checks with cudaOccupancyMaxActiveClusters
// that all its clusters are co-resident, and a grid that is no multiple of the cluster size is a
// skipped row. Its skip_block=1 leaves out the last cluster: a cluster's hardware barrier counts
// a block that has exited as arrived, so one absent block alone is no absent participant.
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/background_load.hpp"
#include "common/device_buffer.hpp"
#include "common/occupancy.cuh"
#include "common/stamp_check.cuh"
#include "common/watchdog.cuh"
#include "core/faults.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "gpubarrier/residency.cuh"
#include "grid/detail/traits.hpp"

namespace gb {
namespace grid {

template <class B>
concept GridBarrierMembers = requires(int blocks) {
  { B::info } -> std::same_as<const MethodInfo&>;
  { B::traits } -> std::same_as<const Traits&>;
  { B::state_words(blocks) } -> std::convertible_to<std::size_t>;
  B::init_state(static_cast<unsigned*>(nullptr), blocks, blocks);
};

template <class B>
concept GridBarrierBlock =
    std::constructible_from<typename B::Block, unsigned*, const WatchdogArgs&> &&
    requires(typename B::Block& block) {
  { block.sync() } -> std::same_as<bool>;
};

template <class B>
concept GridBarrier = GridBarrierMembers<B> && GridBarrierBlock<B>;

// The partial-participation test (skip_block=last): the last `absent` blocks (one block, or the
// last cluster) never arrive at any barrier; absent = 0: every block arrives.
enum class SkipBlock { none = 0, last = 1 };
__device__ inline bool skips(int absent) {
  return blockIdx.x + static_cast<unsigned>(absent) >= gridDim.x;
}

template <GridBarrier Barrier>
__global__ void timed(unsigned* state, WatchdogArgs watchdog, long reps, int absent) {
  if (skips(absent)) return;
  typename Barrier::Block bar(state, watchdog);
  for (long r = 0; r < reps; ++r)
    if (!bar.sync()) return;
}

// Block leaders publish the round before the barrier; after it every block must see every other
// block's stamp of this round, or of the next when that block has already left (the study's section
// 8). Two rounds on would mean that block passed the next barrier before this one arrived.
// In every round one block, drawn from `seed`, publishes late (common/stamp_check.cuh): without
// the barrier the first blocks to start read its stamp long before it is written, whatever the
// grid's shape. `broken` (test hook GPUBARRIER_TEST_BREAK, core/faults.hpp) leaves the barrier out.
template <GridBarrier Barrier>
__global__ void check(unsigned* state, WatchdogArgs watchdog, int rounds, int absent, int broken,
                      unsigned seed, unsigned* stamps, unsigned* failures) {
  if (skips(absent)) return;
  typename Barrier::Block bar(state, watchdog);
  volatile unsigned* s = stamps;
  const dev::LateTurn late{0, 1, blockIdx.x, gridDim.x, seed};
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0) {
      if (late(r)) dev::arrive_late();
      s[blockIdx.x] = r;
    }
    if (!broken && !bar.sync()) return;
    unsigned bad = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
      const unsigned seen = s[b];
      bad += seen < unsigned(r) || seen > unsigned(r) + 1;
    }
    if (bad) atomicAdd(failures, bad);
  }
}

inline int sm_count(int device) {
  int n = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
  return n;
}

// cluster_size 0: a cooperative launch, or a plain one where `cooperative` is false; otherwise
// clusters of that many blocks (feasible() has checked that they are all co-resident; a
// cooperative launch takes no clusters). `domain`: the memory synchronization domain the kernel
// runs in. Waits for this launch alone (the legacy stream), not for other streams' work such as a
// background copy (common/background_load.hpp).
inline void launch_grid(const void* kernel, int blocks, int threads, int cluster_size, void** args,
                        cudaLaunchMemSyncDomain domain = cudaLaunchMemSyncDomainDefault,
                        bool cooperative = true) {
  cudaLaunchAttribute attrs[2]{};
  if (cluster_size == 0 && !cooperative) {
    attrs[0].id = cudaLaunchAttributeIgnore;
  } else if (cluster_size == 0) {
    attrs[0].id = cudaLaunchAttributeCooperative;
    attrs[0].val.cooperative = 1;
  } else {
    attrs[0].id = cudaLaunchAttributeClusterDimension;
    attrs[0].val.clusterDim.x = static_cast<unsigned>(cluster_size);
    attrs[0].val.clusterDim.y = 1;
    attrs[0].val.clusterDim.z = 1;
  }
  // The default domain is every launch's without the attribute: set only for another.
  attrs[1].id = cudaLaunchAttributeMemSyncDomain;
  attrs[1].val.memSyncDomain = domain;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.attrs = attrs;
  config.numAttrs = domain == cudaLaunchMemSyncDomainDefault ? 1 : 2;
  GB_CUDA_CHECK(cudaLaunchKernelExC(&config, kernel, args));
  GB_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

template <GridBarrier Barrier>
class GridBarrierMethod final : public Method {
 public:
  GridBarrierMethod() : Method(framed(Barrier::info, Level::grid, frame_axes())) {}
  Requirements requirements() const override {
    return Requirements::single_gpu(Barrier::traits.clustered ? 90 : 0);
  }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    if (Usability room = background_fits(p.choice("background", Background::none), per_sm,
                                         static_cast<int>(threads));
        !room.ok)
      return room;
    if constexpr (Barrier::traits.clustered)
      return clusters_fit(ctx, per_sm, static_cast<int>(threads), p.at("cluster_size"));
    else
      return blocks_fit("occupancy", per_sm, static_cast<int>(threads), timed<Barrier>,
                        check<Barrier>);
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const Shape s = shape(ctx, p);
    DeviceBuffer<unsigned> words(state_words(s)), stamps(s.blocks), failures(1);
    DeviceWatchdog watchdog(ctx);
    int rounds = 64;
    unsigned* st = words.get();
    WatchdogArgs w = watchdog.args();
    int absent = s.absent;
    int broken = faults::break_check(name());
    unsigned seed = check_seed();
    unsigned* stamp_ptr = stamps.get();
    unsigned* fail_ptr = failures.get();
    Barrier::init_state(st, s.blocks, s.threads);
    void* args[] = {&st, &w, &rounds, &absent, &broken, &seed, &stamp_ptr, &fail_ptr};
    launch_grid(reinterpret_cast<const void*>(check<Barrier>), s.blocks, s.threads, s.cluster_size,
                args);
    if (watchdog.tripped()) return Verification::timed_out(watchdog.detail(name()));
    return Verification::from_failures(failures.to_host()[0],
                                       "block stamps of the wrong round seen after the barrier");
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const Shape s = shape(ctx, p);
    DeviceBuffer<unsigned> words(state_words(s));
    DeviceWatchdog watchdog(ctx);
    unsigned* st = words.get();
    WatchdogArgs w = watchdog.args();
    int absent = s.absent;
    Barrier::init_state(st, s.blocks, s.threads);
    const Background background = p.choice("background", Background::none);
    // Beside the copy, a barrier whose waits carry the watchdog is launched plainly: the GPU may
    // hold a cooperative launch back until every other kernel has ended, so that it would never
    // run beside the copy. feasible() has checked that the grid fits beside the copy's blocks; a
    // grid that is not all resident anyway ends in the watchdog's timeout, not in a hang.
    const bool cooperative = background == Background::none || !Barrier::traits.interruptible;
    BackgroundLoad load(background);
    auto run = [&](long reps) {
      void* args[] = {&st, &w, &reps, &absent};
      const auto t0 = std::chrono::steady_clock::now();
      launch_grid(reinterpret_cast<const void*>(timed<Barrier>), s.blocks, s.threads,
                  s.cluster_size, args, barrier_domain(background), cooperative);
      const auto t1 = std::chrono::steady_clock::now();
      watchdog.throw_if_tripped(name());
      return std::chrono::duration<double>(t1 - t0).count();
    };
    try {
      Measurement m = differential(ctx, run);
      if (load.running()) return {m};
      // The copy ended before the figure did: its launches did not all run beside it.
      Measurement skipped;
      skipped.metric = m.metric;
      skipped.unit = m.unit;
      skipped.technique = m.technique;
      skipped.status = Status::skipped;
      skipped.note =
          "background: the copy kernel ended before the barrier's timed launches did "
          "(it stops itself after 10 s; or this GPU held the cooperative launches back "
          "until it ended), so the figure is no figure under load";
      return {skipped};
    } catch (const WatchdogTimeout& e) {
      return {timeout_measurement(Metric::latency, "ns", Technique::differential, e.what())};
    }
  }

 private:
  static std::vector<Axis> frame_axes() {
    std::vector<Axis> a = {{"blocks_per_sm", {1, 2, 4, 8, 16, 32}},
                           {"threads_per_block", {32, 64, 128, 256, 512, 1024}}};
    // Only a barrier whose spin loops carry the watchdog may be left by a block on purpose.
    if (Barrier::traits.interruptible)
      a.push_back({"skip_block",
                   {0},
                   {{SkipBlock::none, "none", "every block arrives"},
                    {SkipBlock::last, "last",
                     "the last block (the last cluster of a clustered barrier) never arrives "
                     "(the barrier must give up, not hang)"}}});
    if (Barrier::traits.clustered) a.push_back({"cluster_size", {2, 4, 8}});
    a.push_back(background_axis());
    return a;
  }
  struct Shape {
    int blocks, threads;
    int cluster_size;  // 0: not clustered
    int absent;        // the trailing blocks that never arrive (skip_block=1)
  };
  static Shape shape(const RunContext& ctx, const Point& p) {
    const int cluster = Barrier::traits.clustered ? static_cast<int>(p.at("cluster_size")) : 0;
    return {static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front()),
            static_cast<int>(p.at("threads_per_block")), cluster,
            p.choice("skip_block", SkipBlock::none) == SkipBlock::last ? std::max(cluster, 1) : 0};
  }

  // Every cluster of the grid co-resident, for the timed kernel and the check alike.
  static Usability clusters_fit(const RunContext& ctx, long per_sm, int threads, long size) {
    if (size < 1 || size > 16) return Usability::no("cluster_size is 1..16");
    const long blocks = per_sm * sm_count(ctx.gpus.front());
    if (blocks % size != 0)
      return Usability::no("blocks_per_sm x SMs = " + std::to_string(blocks) +
                           " blocks is no multiple of cluster_size " + std::to_string(size));
    // The public headers' query (gpubarrier/residency.cuh); a size the GPU refuses fits none.
    unsigned timed_fit = 0, check_fit = 0;
    if (gpubarrier::max_resident_clusters(timed<Barrier>, static_cast<unsigned>(size),
                                          static_cast<unsigned>(threads), 0,
                                          &timed_fit) != cudaSuccess ||
        gpubarrier::max_resident_clusters(check<Barrier>, static_cast<unsigned>(size),
                                          static_cast<unsigned>(threads), 0,
                                          &check_fit) != cudaSuccess)
      cudaGetLastError();  // not sticky: later checks and launches go on
    const long fit = std::min(timed_fit, check_fit);
    if (blocks / size > fit)
      return Usability::no("occupancy: at most " + std::to_string(fit) + " clusters of " +
                           std::to_string(size) + " blocks x " + std::to_string(threads) +
                           " threads are co-resident, the grid has " +
                           std::to_string(blocks / size));
    return Usability::yes();
  }
  static std::size_t state_words(const Shape& s) {
    return std::max<std::size_t>(1, Barrier::state_words(s.blocks));
  }
};

}  // namespace grid
}  // namespace gb
