// The grid frame's Block (grid/detail/grid_barrier.cuh) over a barrier of the public headers
// (include/gpubarrier/): made by every thread of a block on the frame's state words, which hold
// the barrier's 64-bit count, with the frame's watchdog as the barrier's; sync() is the
// barrier's, false once the watchdog tripped.
#pragma once

#include "common/watchdog.cuh"
#include "gpubarrier/watchdog.cuh"

namespace gb::grid {

template <template <class> class Barrier>
class PublicBlock {
 public:
  __device__ PublicBlock(unsigned* state, const WatchdogArgs& watchdog)
      : bar_(reinterpret_cast<unsigned long long*>(state),
             gpubarrier::Watchdog{watchdog.budget_ns, watchdog.tripped}) {}

  __device__ bool sync() { return bar_.sync(); }

 private:
  Barrier<gpubarrier::Watchdog> bar_;
};

}  // namespace gb::grid
