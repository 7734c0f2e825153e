// The loop of the study's Fig. 10 (Zhang, Wahib, Zhang, Matsuoka), which its model is built on
// (section 7.2), and every reduction's first phase (Fig. 12 `summing`):
// `while (i < n) { sum += data[i]; i += groupsize; }`, the two adds imitating a reduction's work.
#pragma once

#include <cstdint>

namespace gb::dev {

template <class T>
__device__ __forceinline__ double strided_sum(const T* data, std::uint64_t n, std::uint64_t first,
                                              std::uint64_t threads) {
  double sum = 0;
  for (std::uint64_t i = first; i < n; i += threads) sum += data[i];
  return sum;
}

__device__ __forceinline__ std::uint64_t grid_thread() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t grid_threads() {
  return static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
}

}  // namespace gb::dev
