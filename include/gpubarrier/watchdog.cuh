// gpubarrier: the watchdog that turns a barrier that never completes into an error.
//
// Every spin loop of gpubarrier's barriers polls its word and, once every kCheckEvery polls, asks
// its watchdog whether to give up. A loop that gives up makes the barrier's sync() return false
// in every thread of its block; the caller then leaves the kernel, and the host reads the
// watchdog's flag (grid_barrier_timed_out, device_barrier_timed_out) to tell a timeout from a
// completed run. A barrier that completes within kCheckEvery polls, as every healthy one on a
// resident grid does, reads no clock.
//
// A watchdog type W may replace Watchdog in the barriers' templates; it needs one member:
//   __device__ bool give_up(std::uint64_t& deadline, unsigned polls) const;
// called with polls = kCheckEvery, 2 kCheckEvery, ...; `deadline` is 0 at the first call of a
// loop and is the caller's to set. true: give up now.
//
// Requirements: C++17, CUDA 12 or newer, sm_70 or newer (%globaltimer, __nanosleep).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gpubarrier {

// Polls between two looks at the watchdog.
inline constexpr unsigned kCheckEvery = 64;

// The default watchdog: a budget per spin loop and one flag word per launch (device memory,
// zero before the launch). The first loop whose budget expires raises the flag; every other
// loop that sees it raised gives up too, so the whole grid leaves. budget_ns = 0 or a null flag:
// no watchdog (a loop spins until its barrier completes).
struct Watchdog {
  std::uint64_t budget_ns = 0;
  unsigned* tripped = nullptr;

  __device__ bool give_up(std::uint64_t& deadline, unsigned polls) const {
    if (tripped == nullptr || budget_ns == 0) return false;
    const std::uint64_t now = global_ns();
    if (polls == kCheckEvery) {  // the budget starts when the loop has shown it waits
      deadline = now + budget_ns;
      return false;
    }
    if (*static_cast<volatile unsigned*>(tripped) != 0) return true;
    if (now <= deadline) return false;
    atomicExch(tripped, 1u);
    return true;
  }

  // Nanoseconds since an arbitrary origin shared by every SM of the GPU.
  __device__ static std::uint64_t global_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
  }
};

namespace detail {

// Polls until done() holds; false when the watchdog gave up first.
template <class W, class Done>
__device__ __forceinline__ bool spin_until(const W& watchdog, Done done) {
  std::uint64_t deadline = 0;
  unsigned polls = 0;
  while (!done())
    if (++polls % kCheckEvery == 0 && watchdog.give_up(deadline, polls)) return false;
  return true;
}

}  // namespace detail
}  // namespace gpubarrier
