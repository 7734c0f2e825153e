// Block-level barriers (the study (Zhang, Wahib, Zhang, Matsuoka), section 5.2, the workshop
// version's Table 5 and Figs. 6-7): the kernels and the Method shared by every barrier across one
// thread block. A barrier is one type in its own file under kernels/block/ (syncthreads.cu,
// cg_sync.cu):
//
//   struct MyBarrier {
//     static inline const MethodInfo info{.name = "gpu.block.<...>", .description = "...",
//                                         .timed = {...}};  // its frame adds level and axes
//     __device__ static void sync();  // called by every thread of the block
//   };
//   GB_REGISTER_METHOD(gb::block_detail::BlockBarrierMethod<gb::block::MyBarrier>)
//
// `info` is the method's MethodInfo (core/method.hpp) but its level and axes, the frame's; the
// concept BlockBarrier states these members: a type that lacks or misspells one is no block
// barrier, and its registration does not compile.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/occupancy.cuh"
#include "common/sm_clock.hpp"
#include "common/sm_throughput.cuh"
#include "common/stamp_check.cuh"
#include "core/faults.hpp"
#include "core/stamp_check.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "runtime/timers.cuh"

namespace gb::block_detail {

template <class B>
concept BlockBarrier = requires {
  { B::info } -> std::same_as<const MethodInfo&>;
  { B::sync() } -> std::same_as<void>;
};

constexpr int kUnroll = 32;  // barriers per loop trip: keeps loop overhead out of the figure
constexpr long kReps = 4096;
constexpr int kCheckRounds = 64;

// Latency (one block) and throughput (many blocks per SM) from one kernel.
template <BlockBarrier B>
__global__ void block_barrier_timed(long trips, WarpSpan* spans) {
  dev::timed_chain<kUnroll>(trips, spans, [] { B::sync(); });
}

// Every thread publishes its stamp in shared memory and after the barrier reads all of them:
// records[round][thread]. All threads share the SM's clock, so the order check covers the block.
// One warp arrives late in every round, each in turn (stamp_check.cuh; the 64 rounds give each of
// up to 32 warps two turns, so nothing is left to draw): with two warps or more, a barrier that
// does not wait for the late one is seen; a block of one warp has nobody to be late for.
// `broken` (test hook GPUBARRIER_TEST_BREAK, core/faults.hpp) leaves the barrier out.
template <BlockBarrier B>
__global__ void block_barrier_check(int rounds, StampRecord* records, int broken) {
  extern __shared__ unsigned stamps[];  // dev::kStampSlots x blockDim.x
  volatile unsigned* s = stamps;
  const unsigned t = threadIdx.x, n = blockDim.x;
  const dev::LateTurn late{static_cast<int>(t / 32), static_cast<int>((n + 31) / 32)};
  for (int k = 0; k < dev::kStampSlots; ++k) s[k * n + t] = 0;
  __syncthreads();
  dev::stamp_rounds(
      rounds, records + t, static_cast<int>(n),
      [&](unsigned r) { s[dev::stamp_slot(r) * n + t] = r; },
      [&] {
        if (!broken) B::sync();
      },
      static_cast<int>(n), [&](int i, unsigned r) { return s[dev::stamp_slot(r) * n + i]; }, late);
}

// Latency: one block alone on the GPU, reported at blocks_per_sm = 1 only. Throughput at every
// blocks_per_sm: that many blocks on each SM, counted in warp-syncs (a barrier crossed by a
// block of W warps counts W), with active_warps_per_sm in the note (the workshop version's Fig. 7).
template <BlockBarrier B>
class BlockBarrierMethod final : public Method {
 public:
  BlockBarrierMethod()
      : Method(framed(B::info, Level::block,
                      {{"threads_per_block", {32, 64, 128, 256, 512, 1024}},
                       {"blocks_per_sm", {1, 2, 4, 8, 16, 32}}})) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long threads = p.at("threads_per_block");
    const long per_sm = p.at("blocks_per_sm");
    if (threads < 1 || threads > 1024)
      return Usability::no("threads_per_block must be within 1..1024");
    if (per_sm < 1) return Usability::no("blocks_per_sm must be at least 1");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    return blocks_fit("occupancy", per_sm, static_cast<int>(threads), block_barrier_timed<B>);
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int threads = static_cast<int>(p.at("threads_per_block"));
    DeviceBuffer<StampRecord> records(static_cast<std::size_t>(kCheckRounds) * threads);
    block_barrier_check<B><<<1, threads, dev::kStampSlots * threads * sizeof(unsigned)>>>(
        kCheckRounds, records.get(), faults::break_check(name()));
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    return check_stamps(records.to_host(), StampLayout{kCheckRounds, threads, {}}).verdict();
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const int device = ctx.gpus.front();
    const int threads = static_cast<int>(p.at("threads_per_block"));
    const int per_sm = static_cast<int>(p.at("blocks_per_sm"));
    const SmClock clock = measure_sm_clock(device);
    const int blocks = per_sm * multiprocessor_count(device);
    DeviceBuffer<WarpSpan> spans(static_cast<std::size_t>(blocks) * warps_per_block(threads));
    auto run = [&](int grid) {
      block_barrier_timed<B><<<grid, threads>>>(kReps / kUnroll, spans.get());
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      return spans.to_host();
    };
    std::vector<Measurement> rows;
    if (per_sm == 1) rows = lone_latency(ctx, run, clock, kReps);
    auto rate = [&] { return sm_rate(run(blocks), kReps); };
    for (Measurement& m : sm_throughput(ctx, rate, clock, kReps, "warp-syncs"))
      rows.push_back(std::move(m));
    return rows;
  }
};

}  // namespace gb::block_detail
