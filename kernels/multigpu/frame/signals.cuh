// The loads, stores and watchdog spin that the signal words of device-side multi-GPU barriers are
// made of, shared by every algorithm (each defines its own words in its own file,
// kernels/multigpu/*.cu; the word type, the control words and the orderings are
// runtime/barrier_args.cuh). Every word only grows (epochs), so no barrier ever resets one.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "runtime/barrier_args.cuh"
#include "runtime/timers.cuh"

namespace gb::mg {

// Signals default to system scope (they cross GPUs); a signal that stays inside one GPU can use
// device scope, which needs no system-wide fence.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ __forceinline__ Word load_signal(const Word* p, Ordering o) {
  cuda::atomic_ref<Word, S> a(*const_cast<Word*>(p));
  return o == Ordering::acquire_release ? a.load(cuda::memory_order_acquire)
                                        : a.load(cuda::memory_order_relaxed);
}

template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ __forceinline__ void store_signal(Word* p, Word v, Ordering o) {
  cuda::atomic_ref<Word, S> a(*p);
  if (o == Ordering::acquire_release)
    a.store(v, cuda::memory_order_release);
  else
    a.store(v, cuda::memory_order_relaxed);
}

__device__ __forceinline__ Word add_signal(Word* p, Ordering o) {
  cuda::atomic_ref<Word, cuda::thread_scope_system> a(*p);
  return o == Ordering::acquire_release ? a.fetch_add(1, cuda::memory_order_acq_rel)
                                        : a.fetch_add(1, cuda::memory_order_relaxed);
}

template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ __forceinline__ void fence_if_relaxed(Ordering o) {
  if (o == Ordering::relaxed_fenced)
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, S);
  else if (o == Ordering::relaxed_acq_rel)
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, S);
}

// Spins until *p >= target. Gives up (false) when the watchdog expires or another block of this
// GPU gave up; the first to give up raises `abort` so that every block leaves the kernel.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ inline bool wait_at_least(const Word* p, Word target, Ordering o, Control* self,
                                     std::uint64_t watchdog_ns) {
  if (load_signal<S>(p, o) >= target) return true;
  const std::uint64_t deadline = dev::global_ns() + watchdog_ns;
  for (unsigned i = 1;; ++i) {
    if (load_signal<S>(p, o) >= target) return true;
    // %globaltimer and the abort word are read every 32 polls: off the fast path.
    if (i % 32 == 0) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> abort(self->abort);
      if (abort.load(cuda::memory_order_relaxed)) return false;
      if (dev::global_ns() > deadline) {
        abort.store(1, cuda::memory_order_relaxed);
        atomicAdd(&self->timeouts, 1u);
        return false;
      }
    }
  }
}

// wait_at_least with relaxed polls and, for release/acquire, one acquire fence at scope S once
// the target is seen, as CUDA's grid.sync waits (volatile polls, then a fence), instead of an
// acquire load (an L1 invalidation) at every poll.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ inline bool wait_then_acquire(const Word* p, Word target, Ordering o, Control* self,
                                         std::uint64_t watchdog_ns) {
  const bool acquire = o == Ordering::acquire_release;
  const bool ok = wait_at_least<S>(p, target, acquire ? Ordering::unordered : o, self, watchdog_ns);
  if (acquire) cuda::atomic_thread_fence(cuda::memory_order_acquire, S);
  return ok;
}

}  // namespace gb::mg
