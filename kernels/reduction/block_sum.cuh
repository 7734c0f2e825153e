// The device building blocks of every reduction (the study (Zhang, Wahib, Zhang, Matsuoka), Fig.
// 12): a grid-strided partial sum and a sum over one block (warp shuffles, one barrier, warp 0
// again). Public: the multi-GPU reduction over a device barrier
// (kernels/reduction/multi_device_barrier.cu) uses them too.
#pragma once

#include <cstdint>

#include "common/strided_sum.cuh"

namespace gb::reduction {

// Lanes of a full warp; the sum lands in lane 0.
__device__ __forceinline__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(~0u, v, offset);
  return v;
}

// Sum of `v` over the block, valid in thread 0. blockDim.x is 1 or a multiple of 32;
// `scratch` is 32 doubles of shared memory. Every thread of the block must call it.
__device__ __forceinline__ double block_sum(double v, double* scratch) {
  if (blockDim.x == 1) return v;
  v = warp_sum(v);
  if (blockDim.x == 32) return v;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp != 0) return 0;
  v = lane < blockDim.x / 32 ? scratch[lane] : 0.0;
  return warp_sum(v);
}

using dev::grid_thread;
using dev::grid_threads;
using dev::strided_sum;

// partials[blockIdx.x] = this block's sum of its grid-strided share.
__device__ __forceinline__ void block_partial(const double* data, std::uint64_t n,
                                              double* partials) {
  __shared__ double scratch[32];
  const double s = block_sum(strided_sum(data, n, grid_thread(), grid_threads()), scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// One block: *out = sum of data[0, n).
__device__ __forceinline__ void block_total(const double* data, std::uint64_t n, double* out) {
  __shared__ double scratch[32];
  const double s = block_sum(strided_sum(data, n, threadIdx.x, blockDim.x), scratch);
  if (threadIdx.x == 0) *out = s;
}

}  // namespace gb::reduction
