// TEST-ONLY: GPUBARRIER_TEST_BREAK=<method glob> makes the check kernels of the matching block,
// cluster and grid methods skip their barrier, so that the GPU tests can show that the check
// reports a barrier that does not wait (tests/gpu/test_single_gpu_sync.py, test_grid_kernel.py).
// Timed kernels are never affected. Multi-GPU methods have the `fault` axis instead.
#pragma once

#include <string_view>

namespace gb {

// Whether the check of `method` runs without its barrier (GPUBARRIER_TEST_BREAK matches it).
bool test_break(std::string_view method);

}  // namespace gb
