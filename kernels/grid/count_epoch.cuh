// gpu.grid.count-epoch: a software grid barrier of one 64-bit counter that only grows. Each block
// leader adds 1 to it and polls it until it reaches epoch x blocks, the count at which every block
// has arrived at this barrier; nothing is ever reset, so no block waits for a reset or a second
// word (atomic-sense's sense flip, flag-epoch's release flags) before it may leave. It is the
// gather of multigpu.device.push alone, as a grid barrier. Every spin loop carries the watchdog.
//
// Ordering (PTX memory model): the leader's add is an acq_rel RMW at GPU scope after the block's
// bar.sync, so the block's writes are released by it; every add of the barrier is an RMW of the
// one counter, so the acquire load that sees the full count is, through that location's
// observation order, after every block's release, and bar.sync after the wait carries the acquire
// to the block's other threads.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <string_view>

#include "common/watchdog.cuh"

namespace gb::grid {

struct CountEpoch {
  static constexpr std::string_view name = "gpu.grid.count-epoch";
  static constexpr std::string_view description =
      "software grid barrier: one 64-bit counter that only grows, each block adds 1 and polls it "
      "until epoch x blocks; no reset (differential technique)";
  static constexpr bool interruptible = true;
  // The counter: two 32-bit state words (the state is 256-byte aligned).
  static std::size_t state_words(int) { return 2; }

  class Block {
   public:
    using Word = unsigned long long;
    using Ref = cuda::atomic_ref<Word, cuda::thread_scope_device>;

    // Every earlier launch completed all its barriers, so the count is a multiple of the grid
    // when the launch starts; a block that reads it after others arrived at the first barrier
    // sees fewer than gridDim.x more (that barrier cannot complete without this block).
    __device__ Block(unsigned* state, const WatchdogArgs& watchdog)
        : count_(reinterpret_cast<Word*>(state)), watchdog_(watchdog) {
      if (threadIdx.x == 0) epoch_ = Ref(*count_).load(cuda::memory_order_relaxed) / gridDim.x;
    }

    __device__ bool sync() {
      __syncthreads();  // the whole block's writes precede its leader's release
      bool gave_up = false;
      if (threadIdx.x == 0) {
        const Word complete = ++epoch_ * gridDim.x;
        Ref count(*count_);
        count.fetch_add(1, cuda::memory_order_acq_rel);
        dev::Spin spin = dev::spin_budget(watchdog_);
        gave_up = !dev::spin_until(
            spin, [&] { return count.load(cuda::memory_order_acquire) >= complete; });
      }
      return !__syncthreads_or(gave_up);
    }

   private:
    Word* count_;
    WatchdogArgs watchdog_;
    Word epoch_ = 0;  // thread 0's: the barriers this grid completed on the counter
  };
};

}  // namespace gb::grid
