// The FP32 add chain of the study (Zhang, Wahib, Zhang, Matsuoka), Fig. 19, used by `gpubarrier
// selfcheck` to set the clock technique against the differential technique (the study's section
// 9.4). Two shapes of it:
// - the loop kernel repeats one unrolled body of kLoopBody adds a run-time number of times, so
//   that the differential technique's R_lo and R_hi run the very same code and differ only in
//   trips (a different function per repeat count would add its own launch cost: the study's
//   assumption that extra repetitions add no launch overhead would not hold);
// - the unrolled chains are straight-line code of a fixed length each: their size in the
//   instruction cache is the point of the scan that finds where the chain stops fitting.
#pragma once

#include <array>

#include "common/device_buffer.hpp"

namespace gb::selfcheck {

// The base chain and the repeat differences checked against it (the study's section 9.4).
constexpr long kBaseAdds = 512;
constexpr std::array<long, 5> kDifferences = {2048, 5120, 10240, 20480, 51200};

// Adds per trip of the loop kernel: 8 KiB of FADD, well inside the instruction cache.
constexpr long kLoopBody = 512;
static_assert(kBaseAdds % kLoopBody == 0);
// R_lo of the loop kernel: 20 trips, a kernel of about 20 us, past the regime where host-timed
// kernel latency is not linear in the work (the study's section 9.2 saw it below ~5 us). At the
// smallest repeat difference (2048 adds, ~4 us) the pairs must alternate their order (the
// differential technique does): results/README.md has the runs. `selfcheck --base-trips` moves it.
constexpr long kLoopBaseAdds = 20 * kLoopBody;
static_assert([] {
  for (const long d : kDifferences)
    if (d % kLoopBody != 0) return false;
  return true;
}());

struct ChainSample {
  double cycles = 0;   // between the two clock64() reads inside the kernel
  double seconds = 0;  // launch + synchronise, host steady clock
  double ns = 0;       // loop kernel: %globaltimer across the clock bracket (0 for the chains)
};

// Runs the chains in one thread of one block on the current device.
class AddChain {
 public:
  AddChain();
  // Unrolled chain. `adds` is kBaseAdds or kBaseAdds + one of kDifferences; else gb::Error.
  ChainSample run(long adds);
  // Loop kernel. `adds` is a positive multiple of kLoopBody; else gb::Error.
  ChainSample run_loop(long adds);

 private:
  DeviceBuffer<float> out_;
  DeviceBuffer<long long> cycles_;
  DeviceBuffer<long long> loop_cycles_;  // cycles, then ns
};

}  // namespace gb::selfcheck
