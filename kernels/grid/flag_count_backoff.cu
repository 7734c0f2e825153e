// gpu.grid.flag-count-backoff: gpu.grid.flag-count whose waiters sleep between failed polls
// (grid/flag_count.cuh, grid/detail/flag_design.cuh).
#include <string_view>

#include "grid/flag_count.cuh"

namespace gb::grid {

struct FlagCountBackoff : FlagCountWords {
  static inline const MethodInfo info{.name = "gpu.grid.flag-count-backoff",
                                      .description =
                                          "the flag-count grid barrier whose waiters sleep 32-256 "
                                          "ns between failed polls (differential technique)"};
  using Block = PublicBlock<FlagCountBackoffBarrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::FlagCountBackoff>)
