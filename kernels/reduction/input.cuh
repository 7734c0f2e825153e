// One GPU's share of a reduction's input: elements [first, first + n) of the data set
// on the current device, the result slot and the share's exact sum; and what sizes a launch over
// it. Public: the single-GPU reductions (detail/reduction_method.cuh) and the multi-GPU ones
// (multi_reduction.cuh, kernels/reduction/multi_device_barrier.cu) share it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/sm_throughput.cuh"
#include "core/method.hpp"
#include "reduction/block_sum.cuh"
#include "reduction/fill.cuh"
#include "reduction/reference_sum.hpp"

namespace gb::reduction {

constexpr int kThreads = 1024;  // per block, as model.gmem.stream streams

// 1 KiB to 256 MiB in x4 steps (configs/sweeps/reduction.yaml refines and extends it).
inline std::vector<long> default_bytes() {
  std::vector<long> v;
  for (long b = 1024; b <= (256L << 20); b *= 4) v.push_back(b);
  return v;
}

// Whether `bytes` (times `copies`) fits in the free memory of the current device.
inline Usability fits_in_memory(long bytes, int copies) {
  std::size_t free = 0, total = 0;
  GB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (static_cast<double>(bytes) * copies > 0.9 * static_cast<double>(free))
    return Usability::no("needs " + std::to_string(bytes * copies >> 20) + " MiB, the GPU has " +
                         std::to_string(free >> 20) + " MiB free");
  return Usability::yes();
}

// The input of one point on one GPU: elements [first, first + n) of the data set, the result
// slot and the exact sum of the elements.
struct Input {
  Input(std::uint64_t count, std::uint64_t first_element = 0)
      : n(count), first(first_element), data(count), out(1) {
    fill_kernel<double><<<multiprocessor_count(current_device()) * 4, 256>>>(data.get(), n, first);
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    exact = reference_sum(first, n);
  }
  static int current_device() {
    int d = 0;
    GB_CUDA_CHECK(cudaGetDevice(&d));
    return d;
  }
  // The result against the exact sum: passed, or failed with the relative error.
  Verification check(double got, long double expected) {
    error = relative_error(got, expected);
    return sum_verdict(error);
  }
  std::uint64_t n, first;
  DeviceBuffer<double> data, out;
  long double exact = 0;
  double error = 0;
};

// Blocks of `threads` threads of `kernel` that are co-resident on the current device.
template <class Kernel>
int resident_blocks(Kernel kernel, int threads) {
  int per_sm = 0;
  GB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return per_sm * multiprocessor_count(Input::current_device());
}

}  // namespace gb::reduction
