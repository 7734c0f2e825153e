// Grid barrier designs that end on a release flag: the block leaders' arrivals go to counts (the
// Arrival policy: OneCount here, GroupCounts in grid/detail/tree_design.cuh); the leader whose
// arrival completes the barrier writes its epoch into a release flag in a line of its own, 128
// bytes from any count; every other leader polls the flag. The counts' lines then see only the
// adds, never a poll, and the flag's line sees the polls and one store per barrier. Backoff =
// true: a poll that fails sleeps (__nanosleep, 32 ns doubling to 256 ns) before the next, so that
// fewer polls reach the line while the last arrivals travel.
//
// OneCount: every leader adds 1 to one count that only grows; the add that reads
// (barriers completed + 1) x blocks - 1 completes the barrier.
//
// Memory-ordering contract: the public GridBarrier's (include/gpubarrier/grid_barrier.cuh), at
// GPU scope.
// Why it holds under the PTX memory model: bar.sync orders the block's writes before its leader's
// acq_rel add; the adds are RMWs of one count, so they form a release sequence, and the add that
// completes the count, an acquire, reads the value the others' adds built: it synchronizes with
// every block's release (the Arrival's header gives its own argument for this step). The release
// store of the epoch to the flag comes after it in program order, so a leader's acquire load that
// reads the epoch synchronizes with that store and, by transitivity (causality order), with every
// block's release. bar.sync after the wait carries it to the block's threads.
//
// What the caller must do: GridBarrier's rules; its words are the count at words[0], the flag at
// words[kFlagWord] (and the Arrival's further lines), zeroed before the first launch.

#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include "gpubarrier/watchdog.cuh"
#include "grid/detail/block_leader.cuh"

namespace gb::grid {

// 64-bit words: a 128-byte line is 16 of them.
inline constexpr unsigned kLineWords = 16;
inline constexpr unsigned kFlagWord = kLineWords;
inline constexpr unsigned kFlagGridBarrierWords = 2 * kLineWords;

using FlagWord = unsigned long long;
using FlagRef = cuda::atomic_ref<FlagWord, cuda::thread_scope_device>;

// A leader's wait for the release flag to reach `epoch` (an acquire load that reads it
// synchronizes with the store of the leader that completed the count); Backoff: a failed poll
// sleeps 32 ns, doubling to 256 ns, before the next. false: the watchdog gave up.
template <bool Backoff, class W>
__device__ bool wait_for_flag(FlagRef flag, FlagWord epoch, const W& watchdog) {
  unsigned sleep_ns = 32;
  return gpubarrier::detail::spin_until(watchdog, [&] {
    if (flag.load(cuda::memory_order_acquire) >= epoch) return true;
    if constexpr (Backoff) {
      __nanosleep(sleep_ns);
      sleep_ns = sleep_ns < 256 ? 2 * sleep_ns : sleep_ns;
    }
    return false;
  });
}

// The flat arrival: one count at words[0] that only grows.
struct OneCount {
  __device__ explicit OneCount(FlagWord* words)
      : count_(words), blocks_(FlagWord(gridDim.x) * gridDim.y * gridDim.z) {}
  // This block's arrival at barrier `epoch`; true when it completed the barrier.
  __device__ bool completes(FlagWord epoch) {
    return FlagRef(*count_).fetch_add(1, cuda::memory_order_acq_rel) + 1 == epoch * blocks_;
  }

 private:
  FlagWord* count_;
  FlagWord blocks_;
};

template <class Arrival, class W, bool Backoff = false>
class FlagDesign {
 public:
  using Word = FlagWord;

  // Every launch on these words completed all its barriers, so the flag holds the barriers
  // completed; it cannot move before this block arrives.
  __device__ FlagDesign(Word* words, const W& watchdog)
      : arrival_(words), flag_(words + kFlagWord), watchdog_(watchdog) {
    if (block_leader()) epoch_ = FlagRef(*flag_).load(cuda::memory_order_relaxed);
  }

  // Every thread of the block; false in every thread when the watchdog gave up.
  __device__ bool sync() {
    return block_sync([&] { return arrive_and_wait(); });
  }

 private:
  // The leader whose arrival completed the barrier publishes the epoch with a release store,
  // every other one waits for it.
  __device__ bool arrive_and_wait() {
    const Word epoch = ++epoch_;
    FlagRef flag(*flag_);
    if (!arrival_.completes(epoch)) return wait_for_flag<Backoff>(flag, epoch, watchdog_);
    flag.store(epoch, cuda::memory_order_release);
    return true;
  }

  Arrival arrival_;
  Word* flag_;
  W watchdog_;
  Word epoch_ = 0;  // the leader's: the barriers this grid completed
};

}  // namespace gb::grid
