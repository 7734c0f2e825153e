// Tunings of the library's flat count (include/gpubarrier/grid_barrier.cuh, its contract and
// reasoning there), each a template argument of the public BasicGridBarrier, in the grid frame:
// gpu.grid.count-release (the leader's add is release-only, without the acquire half that
// invalidates the SM's L1 after it),
// gpu.grid.count-pause-32 and -128 (a failed poll sleeps about 32 or 128 ns before the next),
// gpu.grid.count-release-pause-32 (both). They measure the two levers of the one-word design
// (the arrival's round trip, the polls' contention with the arrivals) so that the library's
// default can be the tuning that is fastest at each shape.
#pragma once

#include <cstddef>

#include "gpubarrier/grid_barrier.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/traits.hpp"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <unsigned PauseNs, gpubarrier::GridArrival Arrival>
struct CountTuning {
  template <class W>
  using Barrier = gpubarrier::BasicGridBarrier<W, PauseNs, Arrival>;
};

// The counter: two 32-bit state words (the state is 256-byte aligned), as gpu.grid.count-epoch.
struct CountWords : ZeroState {
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int) { return 2; }
};

}  // namespace gb::grid
