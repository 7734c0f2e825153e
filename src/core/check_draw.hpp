// The draws of the device barriers' checks: which block of which GPU arrives late at each barrier
// and whose payload each block reads (kernels/multigpu/frame/crossing.cuh), which warp or block
// arrives late in each round of a block, cluster or grid check (kernels/common/stamp_check.cuh).
// Seeded, so that a run repeats; host and device compute the same values (unit-tested on the
// host).
#pragma once

#include <cstdint>
#include <cstdlib>

#if defined(__CUDACC__)
#define GB_HOST_DEVICE __host__ __device__
#else
#define GB_HOST_DEVICE
#endif

namespace gb {

// A well-mixed 32-bit value of (seed, e) (the finaliser of MurmurHash3, written out here).
GB_HOST_DEVICE inline unsigned check_draw(unsigned seed, unsigned long long e) {
  unsigned long long x = (static_cast<unsigned long long>(seed) << 32) ^ e;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<unsigned>(x);
}

// Whether block `block` of member `member` is the late participant of barrier e: the member goes
// round with the epoch (every GPU in turn), the block is drawn from the seed.
GB_HOST_DEVICE inline bool check_late(int member, int members, unsigned block, unsigned blocks,
                                      unsigned seed, unsigned long long e) {
  return member == static_cast<int>(e % static_cast<unsigned long long>(members)) &&
         block == check_draw(seed, e) % blocks;
}

// The seed of the draws: fixed, so that a run repeats; GPUBARRIER_CHECK_SEED=<n> draws others.
inline unsigned check_seed() {
  const char* v = std::getenv("GPUBARRIER_CHECK_SEED");
  return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : 1u;
}

}  // namespace gb
