// The FP32 add chain of seed 001 Fig. 19, used by `gpubarrier selfcheck` to set the clock
// technique against the differential technique (seed 001 section 9.4). The chains are straight
// line code of a fixed length each: their size in the instruction cache is the point.
#pragma once

#include <array>

#include "common/device_buffer.hpp"

namespace gb::selfcheck {

// The base chain and the repeat differences checked against it (seed 001 section 9.4).
constexpr long kBaseAdds = 512;
constexpr std::array<long, 5> kDifferences = {2048, 5120, 10240, 20480, 51200};

struct ChainSample {
  double cycles = 0;   // between the two clock64() reads inside the kernel
  double seconds = 0;  // launch + synchronise, host steady clock
};

// Runs the chains in one thread of one block on the current device.
class AddChain {
 public:
  AddChain();
  // `adds` is kBaseAdds or kBaseAdds + one of kDifferences; anything else throws gb::Error.
  ChainSample run(long adds);

 private:
  DeviceBuffer<float> out_;
  DeviceBuffer<long long> cycles_;
};

}  // namespace gb::selfcheck
