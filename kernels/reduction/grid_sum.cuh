// One GPU's sum in one cooperative kernel (the study (Zhang, Wahib, Zhang, Matsuoka), Fig. 13, one
// GPU): every block leaves its partial sum, grid.sync(), block 0 sums the partials into *out.
// reduction.single.grid-sync is this kernel alone; each GPU of a multi-GPU reduction runs it on its
// share, with *out a slot in GPU 0's memory (over peer access) or its own. Public for
// kernels/multigpu/ as well.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda_check.hpp"
#include "reduction/block_sum.cuh"

namespace gb::reduction {

// Every block of a cooperative grid; `partials` holds gridDim.x doubles.
__device__ __forceinline__ void grid_sum(const double* data, std::uint64_t n, double* partials,
                                         double* out) {
  block_partial(data, n, partials);
  cooperative_groups::this_grid().sync();
  if (blockIdx.x == 0) block_total(partials, gridDim.x, out);
}

// Kernels are templates on the element type (double throughout) so that every translation unit
// that includes this header may instantiate them.
template <class T>
__global__ void grid_sum_kernel(const T* data, std::uint64_t n, double* partials, double* out) {
  grid_sum(data, n, partials, out);
}

// *out = sum of data[0, n), one block.
template <class T>
__global__ void total_kernel(const T* data, std::uint64_t n, double* out) {
  block_total(data, n, out);
}

// Enqueues grid_sum_kernel with `blocks` co-resident blocks of `threads` on `stream`.
inline void launch_grid_sum(const double* data, std::uint64_t n, double* partials, double* out,
                            int blocks, int threads, cudaStream_t stream) {
  void* args[] = {&data, &n, &partials, &out};
  GB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sum_kernel<double>),
                                            blocks, threads, args, 0, stream));
}

}  // namespace gb::reduction
