// Warp-level reduction (the study (Zhang, Wahib, Zhang, Matsuoka), section 7.3, Fig. 11, Table 5):
// the sum of 32 doubles by one warp, each variant a small type. The tree variants halve the active
// lanes each step (`if (lane < step) sm[lane] += sm[lane + step]`; the study's `tid + step < 32`
// lets a lane read a slot another lane rewrites in the same step) and synchronise between steps by
// their group; the shuffle variants keep the values in registers. `NoSync` is the tree without a
// barrier: nothing orders one lane's store before another lane's load, so its result is wrong
// (ptxas hoists the loads; tests/gpu checks the row is unverified).
#pragma once

#include <cooperative_groups.h>

#include "runtime/timers.cuh"

namespace gb::warp_detail {

namespace cg = cooperative_groups;

// Each variant: the sum of sm[0..32) (lane i's value also in `v`), valid in lane 0.
struct Serial {
  static constexpr const char* label = "serial (lane 0 adds all 32)";
  __device__ static double sum(double, double* sm, unsigned lane) {
    double s = 0;
    if (lane == 0)
      for (int i = 0; i < 32; ++i) s += sm[i];
    return s;
  }
};

template <class Sync>
__device__ __forceinline__ double tree_sum(double* sm, unsigned lane, Sync sync) {
#pragma unroll
  for (int step = 16; step >= 1; step /= 2) {
    if (lane < static_cast<unsigned>(step)) sm[lane] += sm[lane + step];
    sync();
  }
  return sm[0];
}

struct NoSync {
  static constexpr const char* label = "tree in shared memory without synchronisation";
  __device__ static double sum(double, double* sm, unsigned lane) {
    return tree_sum(sm, lane, [] {});
  }
};

struct TileSync {
  static constexpr const char* label = "tree in shared memory, tiled_partition<32>.sync()";
  __device__ static double sum(double, double* sm, unsigned lane) {
    const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    return tree_sum(sm, lane, [&] { tile.sync(); });
  }
};

struct CoalescedSync {
  static constexpr const char* label = "tree in shared memory, coalesced_threads().sync()";
  __device__ static double sum(double, double* sm, unsigned lane) {
    const auto group = cg::coalesced_threads();
    return tree_sum(sm, lane, [&] { group.sync(); });
  }
};

template <class Group>
__device__ __forceinline__ double shuffle_sum(double v, const Group& g) {
#pragma unroll
  for (int step = 16; step >= 1; step /= 2) v += g.shfl_down(v, step);
  return v;
}

struct TileShuffle {
  static constexpr const char* label = "tiled_partition<32>.shfl_down()";
  __device__ static double sum(double v, double*, unsigned) {
    return shuffle_sum(v, cg::tiled_partition<32>(cg::this_thread_block()));
  }
};

struct CoalescedShuffle {
  static constexpr const char* label = "coalesced_threads().shfl_down()";
  __device__ static double sum(double v, double*, unsigned) {
    return shuffle_sum(v, cg::coalesced_threads());
  }
};

// One warp: `rounds` times, the 32 values go to shared memory (untimed) and the variant sums
// them between two clock reads; the last round's cycles and sum are kept (the first rounds warm
// the instruction cache).
template <class Variant>
__global__ void warp_reduce_kernel(const double* in, int rounds, double* out, long long* cycles) {
  __shared__ double sm[32];
  const unsigned lane = threadIdx.x % 32;
  const double v = in[lane];
  double sum = 0;
  long long t0 = 0, t1 = 0;
  for (int r = 0; r < rounds; ++r) {
    sm[lane] = v;
    __syncwarp();
    asm volatile("" ::"d"(v) : "memory");
    t0 = dev::sm_clock();
    sum = Variant::sum(v, sm, lane);
    asm volatile("" ::"d"(sum) : "memory");
    t1 = dev::sm_clock();
    __syncwarp();
  }
  if (lane == 0) {
    *out = sum;
    *cycles = t1 - t0;
  }
}

}  // namespace gb::warp_detail
