// Device clocks. Inline asm with a memory clobber keeps the compiler from moving the reads
// across the code they bracket; the SASS check in tests/gpu confirms it.
#pragma once

#include <cstdint>

namespace gb::dev {

__device__ __forceinline__ long long sm_clock() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// Nanoseconds since an arbitrary origin, common to all SMs of a GPU (coarse: ~32 ns - 1 us ticks).
__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

}  // namespace gb::dev
