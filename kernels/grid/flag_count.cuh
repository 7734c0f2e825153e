// The flag-count design of a grid barrier (gpu.grid.flag-count, gpu.grid.flag-count-backoff):
// grid/detail/flag_design.cuh (its contract and reasoning there) in the grid frame:
// arrivals on a count, waits on a release flag in another 128-byte line, written once per barrier
// by the leader that completes the count; -backoff sleeps between failed polls.
#pragma once

#include <cstddef>
#include <string_view>

#include "grid/detail/flag_design.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <class W>
using FlagCountBarrier = FlagDesign<OneCount, W, false>;
template <class W>
using FlagCountBackoffBarrier = FlagDesign<OneCount, W, true>;

struct FlagCountWords : ZeroState {
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int) { return 2 * kFlagGridBarrierWords; }
};

}  // namespace gb::grid
