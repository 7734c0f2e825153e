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

// The watchdog's check, off the fast path: whether another block of this GPU gave up or
// `deadline` (%globaltimer, ns) has passed; the first to give up raises `abort` and counts a
// timeout, so that every block leaves the kernel.
__device__ inline bool gave_up(Control* self, std::uint64_t deadline) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> abort(self->abort);
  if (abort.load(cuda::memory_order_relaxed)) return true;
  if (dev::global_ns() <= deadline) return false;
  abort.store(1, cuda::memory_order_relaxed);
  atomicAdd(&self->timeouts, 1u);
  return true;
}

// Spins until *p >= target. Gives up (false) when the watchdog expires or another block of this
// GPU gave up.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ inline bool wait_at_least(const Word* p, Word target, Ordering o, Control* self,
                                     std::uint64_t watchdog_ns) {
  std::uint64_t deadline = 0;
  for (unsigned i = 1;; ++i) {
    if (load_signal<S>(p, o) >= target) return true;
    // %globaltimer and the abort word are read every 32 polls, the first time to start the
    // watchdog: none of them on the fast path (a wait that ends within 32 polls reads no clock).
    if (i % 32 == 0) {
      if (i == 32) deadline = dev::global_ns() + watchdog_ns;
      if (gave_up(self, deadline)) return false;
    }
  }
}

// An acquire fence at scope S and nothing more: PTX ISA 8.6's fence.acquire (sm_90, CUDA 12.8
// and later) only invalidates the SM's L1 (CCTL.IVALL), where libcu++'s acquire fence is
// fence.acq_rel, a full MEMBAR that also waits for this thread's earlier writes. A strong read
// followed by it is an acquire pattern of the PTX memory model. Older toolchains get
// fence.acq_rel, which is stronger.
template <cuda::thread_scope S>
__device__ __forceinline__ void acquire_fence() {
  static_assert(S == cuda::thread_scope_system || S == cuda::thread_scope_device);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
  if constexpr (S == cuda::thread_scope_system)
    asm volatile("fence.acquire.sys;" ::: "memory");
  else
    asm volatile("fence.acquire.gpu;" ::: "memory");
#else
  cuda::atomic_thread_fence(cuda::memory_order_acquire, S);
#endif
}

// What a wait with relaxed polls does once it has seen its target: ordering 0 (release-acquire)
// the light acquire fence above, 1 and 2 their relaxed ordering's full fence, unordered nothing.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ __forceinline__ void acquire_after_relaxed_polls(Ordering o) {
  if (o == Ordering::acquire_release)
    acquire_fence<S>();
  else
    fence_if_relaxed<S>(o);
}

// wait_at_least with, for release/acquire, relaxed polls and one acquire fence once the target
// is seen, as CUDA's grid.sync waits (volatile polls, then a fence), instead of an acquire load
// (an L1 invalidation) at every poll. The relaxed orderings poll as wait_at_least does; their
// fence is the caller's.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ inline bool wait_then_acquire(const Word* p, Word target, Ordering o, Control* self,
                                         std::uint64_t watchdog_ns) {
  const bool acquire = o == Ordering::acquire_release;
  const bool ok = wait_at_least<S>(p, target, acquire ? Ordering::unordered : o, self, watchdog_ns);
  if (ok && acquire) acquire_fence<S>();
  return ok;
}

// Waits until every thread of the block has seen each of words[0, n) at `target` or later:
// thread t polls words t, t + blockDim.x, ... with relaxed loads, each sweep issuing all of its
// words not yet seen complete at once (every word before `next` was), then acquires them with
// one fence (acquire_after_relaxed_polls) in every thread that polled. Called by every thread of
// the block; the same result in every thread, false once the watchdog expired.
template <cuda::thread_scope S = cuda::thread_scope_system>
__device__ inline bool block_wait_all(const Word* words, int n, Word target, Ordering o,
                                      Control* self, std::uint64_t watchdog_ns) {
  const int step = static_cast<int>(blockDim.x);
  int next = static_cast<int>(threadIdx.x);
  bool good = true;
  std::uint64_t deadline = 0;
  for (unsigned i = 0; next < n; ++i) {
    bool prefix = true;  // every word from `next` up to w is complete
#pragma unroll 4
    for (int w = next; w < n; w += step) {
      // Loaded even after an incomplete word, so that all are in flight at once.
      const bool done = load_signal<S>(words + w, Ordering::unordered) >= target;
      prefix = prefix && done;
      if (prefix) next = w + step;
    }
    if (next >= n) break;
    if (i % 32 == 31) {  // the watchdog, as in wait_at_least
      if (i == 31) deadline = dev::global_ns() + watchdog_ns;
      if (gave_up(self, deadline)) {
        good = false;
        break;
      }
    }
  }
  // Only the threads that polled acquire; bar.sync orders the others after them.
  if (good && static_cast<int>(threadIdx.x) < n) acquire_after_relaxed_polls<S>(o);
  return __syncthreads_and(good) != 0;
}

}  // namespace gb::mg
