// The reductions' data set: element i of every reduction's array is data_value(i) (the exact sum
// is reference_sum.hpp's). C++17 and no CUDA runtime, so that the gpubarrier-legacy helper, built
// with an older toolkit, fills its arrays with the same values (legacy/reduction.cu).
#pragma once

#include <cstdint>

#include "core/check_draw.hpp"

namespace gb::reduction {

constexpr unsigned kDataSeed = 0x5eed17u;

// 0.5 + h(i) * 2^-32 with h a 32-bit hash: exactly representable, never zero, the same on host
// and device.
GB_HOST_DEVICE inline double data_value(std::uint64_t i) {
  return 0.5 + static_cast<double>(check_draw(kDataSeed, i)) * 0x1p-32;
}

}  // namespace gb::reduction
