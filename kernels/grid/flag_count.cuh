// The flag-count design of the grid barrier (gpu.grid.flag-count, gpu.grid.flag-count-backoff):
// include/gpubarrier/flag_grid_barrier.cuh (its contract and reasoning there) in the grid frame:
// arrivals on a count, waits on a release flag in another 128-byte line, written once per barrier
// by the leader that completes the count; -backoff sleeps between failed polls.
#pragma once

#include <cstddef>
#include <string_view>

#include "gpubarrier/flag_grid_barrier.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <class W>
using FlagCountBarrier = gpubarrier::BasicFlagGridBarrier<W, false>;
template <class W>
using FlagCountBackoffBarrier = gpubarrier::BasicFlagGridBarrier<W, true>;

struct FlagCountWords : ZeroState {
  static constexpr bool interruptible = true;
  static constexpr bool clustered = false;
  static std::size_t state_words(int) { return 2 * gpubarrier::kFlagGridBarrierWords; }
};

}  // namespace gb::grid
