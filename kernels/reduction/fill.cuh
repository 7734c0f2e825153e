// The kernel that writes a share of the reductions' data set (data_set.hpp) on the current GPU.
// C++17, so that the gpubarrier-legacy helper fills its shares with it too (legacy/reduction.cu).
#pragma once

#include <cstdint>

#include "common/strided_sum.cuh"
#include "reduction/data_set.hpp"

namespace gb::reduction {

// Element i of the array is element first + i of the data set (a GPU's share starts at first).
template <class T>
__global__ void fill_kernel(T* data, std::uint64_t n, std::uint64_t first) {
  for (std::uint64_t i = dev::grid_thread(); i < n; i += dev::grid_threads())
    data[i] = data_value(first + i);
}

}  // namespace gb::reduction
