// gpu.grid.flag-count: arrivals on a count, waits on a release flag in another line
// (grid/flag_count.cuh, grid/detail/flag_design.cuh).
#include <string_view>

#include "grid/flag_count.cuh"

namespace gb::grid {

struct FlagCount : FlagCountWords {
  static inline const MethodInfo info{
      .name = "gpu.grid.flag-count",
      .description =
          "software grid barrier: each block adds 1 to a count; the block that completes it writes "
          "the epoch to a flag in another line, which the others poll (differential technique)"};
  using Block = PublicBlock<FlagCountBarrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::FlagCount>)
