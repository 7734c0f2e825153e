// The two-level design of a grid barrier (gpu.grid.tree-count-4, gpu.grid.tree-count-8):
// grid/detail/tree_design.cuh (its contract and reasoning there) in the grid frame,
// groups of 4 and of 8 consecutive blocks: each group meets on a count of its own line, the
// group's last arrival adds to the top count, the top's last writes the release flag.
#pragma once

#include <cstddef>
#include <string_view>

#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/tree_design.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <class W>
using TreeCount4Barrier = FlagDesign<GroupCounts<4>, W>;
template <class W>
using TreeCount8Barrier = FlagDesign<GroupCounts<8>, W>;

template <unsigned Group>
struct TreeCountWords : ZeroState {
  static constexpr Traits traits{.interruptible = true};
  static std::size_t state_words(int blocks) {
    return 2 * tree_grid_barrier_words(static_cast<unsigned long long>(blocks), Group);
  }
};

}  // namespace gb::grid
