// gpu.grid.flag-epoch: a software grid barrier with one arrival flag and one release flag per
// block (after Xiao and Feng's lock-free barrier, S. Xiao, W. Feng, "Inter-block GPU
// communication via fast barrier synchronization", IPDPS 2010), counted in epochs so that
// no flag is ever reset. Each block leader writes its epoch to its arrival flag; the threads of
// block 0 gather all arrival flags in parallel, then write the epoch to every release flag, which
// each leader polls. No atomic read-modify-write at all: the comparison with atomic-sense shows
// what the contended counter costs. Every spin loop carries the watchdog.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <string_view>

#include "common/watchdog.cuh"
#include "grid/detail/traits.hpp"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

struct FlagEpoch : ZeroState {
  static inline const MethodInfo info{
      .name = "gpu.grid.flag-epoch",
      .description =
          "software grid barrier: per-block arrival flags gathered by block 0, per-block release "
          "flags, epochs instead of resets (differential technique)"};
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int blocks) { return 2 * static_cast<std::size_t>(blocks); }

  class Block {
   public:
    using Ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

    // A block's own arrival flag holds the last epoch it completed; all blocks completed the
    // same ones in earlier launches, so every block starts from the same epoch.
    __device__ Block(unsigned* state, const WatchdogArgs& watchdog)
        : arrive_(state), release_(state + gridDim.x), watchdog_(watchdog) {
      epoch_ = Ref(arrive_[blockIdx.x]).load(cuda::memory_order_relaxed);
    }

    __device__ bool sync() {
      __syncthreads();  // the whole block's writes precede its leader's release
      ++epoch_;
      bool gave_up = false;
      if (threadIdx.x == 0) Ref(arrive_[blockIdx.x]).store(epoch_, cuda::memory_order_release);
      if (blockIdx.x == 0) {
        dev::Spin spin = dev::spin_budget(watchdog_);
        for (unsigned b = threadIdx.x; b < gridDim.x && !gave_up; b += blockDim.x)
          gave_up = !dev::spin_until(
              spin, [&] { return Ref(arrive_[b]).load(cuda::memory_order_acquire) == epoch_; });
        // Every arrival has been seen by some thread of block 0 before any release is written.
        gave_up = __syncthreads_or(gave_up);
        if (!gave_up)
          for (unsigned b = threadIdx.x + 1; b < gridDim.x; b += blockDim.x)
            Ref(release_[b]).store(epoch_, cuda::memory_order_release);
      } else if (threadIdx.x == 0) {
        dev::Spin spin = dev::spin_budget(watchdog_);
        gave_up = !dev::spin_until(spin, [&] {
          return Ref(release_[blockIdx.x]).load(cuda::memory_order_acquire) == epoch_;
        });
      }
      return !__syncthreads_or(gave_up);
    }

   private:
    unsigned* arrive_;
    unsigned* release_;
    WatchdogArgs watchdog_;
    unsigned epoch_ = 0;
  };
};

}  // namespace gb::grid
