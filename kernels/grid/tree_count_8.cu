// gpu.grid.tree-count-8: the two-level grid barrier in groups of 8 blocks (grid/tree_count.cuh,
// grid/detail/tree_design.cuh).
#include <string_view>

#include "grid/tree_count.cuh"

namespace gb::grid {

struct TreeCount8 : TreeCountWords<8> {
  static inline const MethodInfo info{
      .name = "gpu.grid.tree-count-8",
      .description = "the two-level grid barrier with groups of 8 blocks (differential technique)"};
  using Block = PublicBlock<TreeCount8Barrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::TreeCount8>)
