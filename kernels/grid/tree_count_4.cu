// gpu.grid.tree-count-4: the two-level grid barrier in groups of 4 blocks (grid/tree_count.cuh,
// grid/detail/tree_design.cuh).
#include <string_view>

#include "grid/tree_count.cuh"

namespace gb::grid {

struct TreeCount4 : TreeCountWords<4> {
  static inline const MethodInfo info{
      .name = "gpu.grid.tree-count-4",
      .description =
          "software grid barrier in two levels: groups of 4 blocks meet on counts of their own "
          "lines, each group's last adds to the top count, whose last writes a release flag "
          "(differential technique)"};
  using Block = PublicBlock<TreeCount4Barrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::TreeCount4>)
