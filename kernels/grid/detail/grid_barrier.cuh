// The frame shared by the grid-level barrier methods (the study (Zhang, Wahib, Zhang, Matsuoka),
// sections 5.3 and 9.4, the heat map of the workshop version's Fig. 8): one timed kernel and one
// stamp check per barrier, a cooperative launch, occupancy-based feasibility and the differential
// technique. A barrier is a policy:
//
//   struct Barrier {
//     static constexpr std::string_view name, description;
//     static constexpr bool interruptible;            // its spin loops carry the watchdog
//     static std::size_t state_words(int blocks);      // device words, zero before the first run
//     class Block {                                    // one per block, made by all its threads
//      public:
//       __device__ Block(unsigned* state, const WatchdogArgs& watchdog);
//       __device__ bool sync();                        // false: the watchdog gave up
//     };
//   };
//
// The concept GridBarrier states these members: a type that lacks or misspells one, or whose
// Block cannot be made from (state, watchdog) or has no `bool sync()`, is no grid barrier, and its
// registration does not compile.
//
// Software barriers are launched cooperatively too: the launch then refuses a grid whose blocks
// cannot all be resident at once, the precondition of any grid barrier, instead of deadlocking.
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/occupancy.cuh"
#include "common/stamp_check.cuh"
#include "common/watchdog.cuh"
#include "core/faults.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"

namespace gb {
namespace grid {

template <class B>
concept GridBarrierMembers = requires(int blocks) {
  { B::name } -> std::convertible_to<std::string_view>;
  { B::description } -> std::convertible_to<std::string_view>;
  { B::interruptible } -> std::convertible_to<bool>;
  { B::state_words(blocks) } -> std::convertible_to<std::size_t>;
};

template <class B>
concept GridBarrierBlock =
    std::constructible_from<typename B::Block, unsigned*, const WatchdogArgs&> &&
    requires(typename B::Block& block) {
  { block.sync() } -> std::same_as<bool>;
};

template <class B>
concept GridBarrier = GridBarrierMembers<B> && GridBarrierBlock<B>;

// The partial-participation test (skip_block=last): the last block never arrives at any barrier.
enum class SkipBlock { none = 0, last = 1 };
__device__ inline bool skips(int skip_block) {
  return skip_block && blockIdx.x == gridDim.x - 1;
}

template <GridBarrier Barrier>
__global__ void timed(unsigned* state, WatchdogArgs watchdog, long reps, int skip_block) {
  if (skips(skip_block)) return;
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
__global__ void check(unsigned* state, WatchdogArgs watchdog, int rounds, int skip_block,
                      int broken, unsigned seed, unsigned* stamps, unsigned* failures) {
  if (skips(skip_block)) return;
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

inline void launch_cooperative(const void* kernel, int blocks, int threads, void** args) {
  GB_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, blocks, threads, args, 0, nullptr));
  GB_CUDA_CHECK(cudaDeviceSynchronize());
}

template <GridBarrier Barrier>
class GridBarrierMethod final : public Method {
 public:
  std::string_view name() const override { return Barrier::name; }
  Level level() const override { return Level::grid; }
  std::string_view description() const override { return Barrier::description; }
  std::vector<Axis> axes() const override {
    std::vector<Axis> a = {{"blocks_per_sm", {1, 2, 4, 8, 16, 32}},
                           {"threads_per_block", {32, 64, 128, 256, 512, 1024}}};
    // Only a barrier whose spin loops carry the watchdog may be left by a block on purpose.
    if (Barrier::interruptible)
      a.push_back({"skip_block",
                   {0},
                   {{SkipBlock::none, "none", "every block arrives"},
                    {SkipBlock::last, "last",
                     "the last block never arrives (the barrier must give up, not hang)"}}});
    return a;
  }
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
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
    int skip = s.skip_block;
    int broken = faults::break_check(Barrier::name);
    unsigned seed = check_seed();
    unsigned* stamp_ptr = stamps.get();
    unsigned* fail_ptr = failures.get();
    void* args[] = {&st, &w, &rounds, &skip, &broken, &seed, &stamp_ptr, &fail_ptr};
    launch_cooperative(reinterpret_cast<const void*>(check<Barrier>), s.blocks, s.threads, args);
    if (watchdog.tripped()) return Verification::timed_out(watchdog.detail(Barrier::name));
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
    int skip = s.skip_block;
    auto run = [&](long reps) {
      void* args[] = {&st, &w, &reps, &skip};
      const auto t0 = std::chrono::steady_clock::now();
      launch_cooperative(reinterpret_cast<const void*>(timed<Barrier>), s.blocks, s.threads, args);
      const auto t1 = std::chrono::steady_clock::now();
      watchdog.throw_if_tripped(Barrier::name);
      return std::chrono::duration<double>(t1 - t0).count();
    };
    try {
      return {differential(ctx, run)};
    } catch (const WatchdogTimeout& e) {
      return {timeout_measurement("latency", "ns", "differential", e.what())};
    }
  }

 private:
  struct Shape {
    int blocks, threads, skip_block;
  };
  static Shape shape(const RunContext& ctx, const Point& p) {
    return {static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front()),
            static_cast<int>(p.at("threads_per_block")),
            p.choice("skip_block", SkipBlock::none) == SkipBlock::last};
  }
  static std::size_t state_words(const Shape& s) {
    return std::max<std::size_t>(1, Barrier::state_words(s.blocks));
  }
};

}  // namespace grid
}  // namespace gb
