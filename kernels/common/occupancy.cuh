// Whether a shape fits on one SM at once: the precondition of every launch whose blocks must be
// co-resident (barriers across blocks, cooperative launches, throughput over blocks/SM).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <string>

#include "core/cuda_check.hpp"
#include "core/method.hpp"

namespace gb {

// `per_sm` blocks of `threads` threads of every kernel given (a timed kernel and its check) on
// one SM of the current device; otherwise a reason for a skipped row that starts with `what`
// ("occupancy", "cooperative launch").
template <class... Kernels>
Usability blocks_fit(const char* what, long per_sm, int threads, Kernels... kernels) {
  int fit = INT_MAX;
  (
      [&] {
        int f = 0;
        GB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&f, kernels, threads, 0));
        fit = std::min(fit, f);
      }(),
      ...);
  if (per_sm > fit)
    return Usability::no(std::string(what) + ": at most " + std::to_string(fit) +
                         " blocks/SM of " + std::to_string(threads) + " threads are co-resident");
  return Usability::yes();
}

}  // namespace gb
