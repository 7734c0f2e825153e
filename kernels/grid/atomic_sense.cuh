// gpu.grid.atomic-sense: a software grid barrier after Xiao and Feng's simple one (S. Xiao, W.
// Feng, "Inter-block GPU communication via fast barrier synchronization", IPDPS 2010): one atomic
// arrival counter, made reusable by sense reversal so that no block has to reset it before the next
// round can start. Block leaders arrive; the last one resets the counter and flips the shared sense
// word, which the others poll (with the watchdog).
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <string_view>

#include "common/watchdog.cuh"
#include "grid/detail/traits.hpp"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

struct AtomicSense : ZeroState {
  static inline const MethodInfo info{
      .name = "gpu.grid.atomic-sense",
      .description =
          "software grid barrier: atomic counter with sense reversal (differential technique)"};
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int) { return 2; }  // counter, sense

  class Block {
   public:
    using Ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

    // The sense left by earlier launches is read before this block arrives anywhere, and no round
    // can complete before every block has arrived: every block starts from the same sense.
    __device__ Block(unsigned* state, const WatchdogArgs& watchdog)
        : count_(state), sense_(state + 1), watchdog_(watchdog) {
      if (threadIdx.x == 0) local_sense_ = Ref(*sense_).load(cuda::memory_order_relaxed);
    }

    __device__ bool sync() {
      __syncthreads();  // the whole block's writes precede its leader's release
      bool gave_up = false;
      if (threadIdx.x == 0) {
        local_sense_ ^= 1u;
        Ref sense(*sense_);
        if (Ref(*count_).fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1) {
          // Ordered before the release below: nobody arrives at the next round before seeing it.
          Ref(*count_).store(0, cuda::memory_order_relaxed);
          sense.store(local_sense_, cuda::memory_order_release);
        } else {
          dev::Spin spin = dev::spin_budget(watchdog_);
          gave_up = !dev::spin_until(
              spin, [&] { return sense.load(cuda::memory_order_acquire) == local_sense_; });
        }
      }
      return !__syncthreads_or(gave_up);
    }

   private:
    unsigned* count_;
    unsigned* sense_;
    WatchdogArgs watchdog_;
    unsigned local_sense_ = 0;
  };
};

}  // namespace gb::grid
