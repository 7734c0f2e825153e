// gpu.grid.flag-count and gpu.grid.flag-count-backoff: the grid barrier of
// include/gpubarrier/flag_grid_barrier.cuh (its contract and reasoning there) in the grid frame:
// arrivals on a count, waits on a release flag in another 128-byte line, written once per barrier
// by the leader that completes the count; -backoff sleeps between failed polls.
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

struct FlagCount : FlagCountWords {
  static constexpr std::string_view name = "gpu.grid.flag-count";
  static constexpr std::string_view description =
      "software grid barrier: each block adds 1 to a count; the block that completes it writes the "
      "epoch to a flag in another line, which the others poll (differential technique)";
  using Block = PublicBlock<FlagCountBarrier>;
};

struct FlagCountBackoff : FlagCountWords {
  static constexpr std::string_view name = "gpu.grid.flag-count-backoff";
  static constexpr std::string_view description =
      "gpu.grid.flag-count whose waiters sleep 32-256 ns between failed polls (differential "
      "technique)";
  using Block = PublicBlock<FlagCountBackoffBarrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::FlagCount>)
GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::FlagCountBackoff>)
