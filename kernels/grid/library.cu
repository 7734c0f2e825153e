// gpu.grid.library: the grid barrier that users include as it is, gpubarrier::BasicGridBarrier
// (include/gpubarrier/grid_barrier.cuh), in the grid frame: it runs the design that
// grid_barrier_design picks for the grid's number of blocks (the flat count or the two-level
// barrier; gpubarrier::grid_barrier_design_name says which for a grid). The designs alone are
// gpu.grid.count-epoch and gpu.grid.tree-count-4.
#include <cstddef>
#include <string>
#include <string_view>

#include "gpubarrier/grid_barrier.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

struct LibraryGrid : ZeroState {
  static constexpr std::string_view name = "gpu.grid.library";
  static constexpr std::string_view description =
      "the library's grid barrier as users include it (gpubarrier::GridBarrier): the flat count "
      "or the two-level barrier, by the grid's size (differential technique)";
  static constexpr bool interruptible = true;
  static constexpr bool clustered = false;
  static std::size_t state_words(int blocks) {
    return 2 * gpubarrier::tree_grid_barrier_words(static_cast<unsigned long long>(blocks),
                                                   gpubarrier::kSmallestTreeGroup);
  }
  using Block = PublicBlock<gpubarrier::BasicGridBarrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::LibraryGrid>)
