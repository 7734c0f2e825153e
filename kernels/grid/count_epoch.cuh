// gpu.grid.count-epoch: the grid barrier that users include (include/gpubarrier/grid_barrier.cuh,
// its contract and its reasoning under the PTX memory model there), in the grid-barrier frame:
// one 64-bit counter that only grows. Each block leader adds 1 to it and polls it until it
// reaches epoch x blocks, the count at which every block has arrived at this barrier; nothing is
// ever reset, so no block waits for a reset or a second word (atomic-sense's sense flip,
// flag-epoch's release flags) before it may leave. It is the gather of multigpu.device.push alone,
// as a grid barrier. Every spin loop carries the frame's watchdog, whose budget and flag are the
// public barrier's.
#pragma once

#include <cstddef>
#include <string_view>

#include "gpubarrier/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/traits.hpp"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

// The flat count's policy parts, shared by gpu.grid.count-epoch and its tunings
// (grid/count_tuned.cuh): the public barrier with its template arguments, and its state.
template <unsigned PauseNs = 0, gpubarrier::GridArrival Arrival = gpubarrier::GridArrival::acq_rel>
struct CountTuning {
  template <class W>
  using Barrier = gpubarrier::BasicGridBarrier<W, PauseNs, Arrival>;
};

// The counter: two 32-bit state words (the state is 256-byte aligned).
struct CountWords : ZeroState {
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int) { return 2; }
};

struct CountEpoch : CountWords {
  static inline const MethodInfo info{
      .name = "gpu.grid.count-epoch",
      .description =
          "software grid barrier: one 64-bit counter that only grows, each block adds 1 and polls "
          "it until epoch x blocks; no reset (differential technique)"};
  using Block = PublicBlock<CountTuning<>::Barrier>;  // GridBarrier's defaults
};

}  // namespace gb::grid
