// gpu.warp.tile-sync-diverged: cg::tiled_partition<N>(block).sync() reached from two branches, odd
// and even lanes apart (the study's section 5.1 and Table 2, as a diverged program pays it). On
// sm_90 the converged chain of gpu.warp.tile-sync compiles to NOPs; here every sync crosses the
// WARPSYNC of the diverged path (warp/detail/warp_groups.cuh, SplitGroup), and the branch around
// it is timed with it. Latency with one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct TileSyncDiverged {
  static inline const MethodInfo info{
      .name = "gpu.warp.tile-sync-diverged",
      .description =
          "cg::tiled_partition<N>().sync() reached from two branches (odd and even lanes), tiles "
          "of group_size threads (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::diverged}}};
  using Group = warp_detail::Split<warp_detail::Tiles>;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::TileSyncDiverged>)
