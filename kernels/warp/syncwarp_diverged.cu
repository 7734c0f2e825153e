// gpu.warp.syncwarp-diverged: __syncwarp(mask) with group_size lanes in the mask, reached from two
// branches, odd and even lanes apart, as the CUDA programming guide allows (the study's section
// 5.1, as a diverged program pays it). On sm_90 the converged chain of gpu.warp.syncwarp
// compiles to NOPs; here every sync crosses the WARPSYNC of the diverged path
// (warp/detail/warp_groups.cuh, SplitGroup), and the branch around it is timed with it.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct SyncwarpDiverged {
  static inline const MethodInfo info{
      .name = "gpu.warp.syncwarp-diverged",
      .description =
          "__syncwarp(mask) reached from two branches (odd and even lanes), group_size = "
          "popcount(mask) (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::diverged}}};
  using Group = warp_detail::Split<warp_detail::Masked>;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::SyncwarpDiverged>)
