// gpu.grid.tree-count-4 and gpu.grid.tree-count-8: the two-level grid barrier of
// include/gpubarrier/tree_grid_barrier.cuh (its contract and reasoning there) in the grid frame,
// groups of 4 and of 8 consecutive blocks: each group meets on a count of its own line, the
// group's last arrival adds to the top count, the top's last writes the release flag.
#include <cstddef>
#include <string_view>

#include "gpubarrier/tree_grid_barrier.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <class W>
using TreeCount4Barrier = gpubarrier::BasicTreeGridBarrier<W, 4>;
template <class W>
using TreeCount8Barrier = gpubarrier::BasicTreeGridBarrier<W, 8>;

template <unsigned Group>
struct TreeCountWords : ZeroState {
  static constexpr bool interruptible = true;
  static constexpr bool clustered = false;
  static std::size_t state_words(int blocks) {
    return 2 * gpubarrier::tree_grid_barrier_words(static_cast<unsigned long long>(blocks), Group);
  }
};

struct TreeCount4 : TreeCountWords<4> {
  static constexpr std::string_view name = "gpu.grid.tree-count-4";
  static constexpr std::string_view description =
      "software grid barrier in two levels: groups of 4 blocks meet on counts of their own lines, "
      "each group's last adds to the top count, whose last writes a release flag (differential "
      "technique)";
  using Block = PublicBlock<TreeCount4Barrier>;
};

struct TreeCount8 : TreeCountWords<8> {
  static constexpr std::string_view name = "gpu.grid.tree-count-8";
  static constexpr std::string_view description =
      "gpu.grid.tree-count-4 with groups of 8 blocks (differential technique)";
  using Block = PublicBlock<TreeCount8Barrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::TreeCount4>)
GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::TreeCount8>)
