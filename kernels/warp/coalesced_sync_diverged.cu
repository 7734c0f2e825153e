// gpu.warp.coalesced-sync-diverged: the coalesced group of group_size lanes (made by a branch)
// .sync() reached from two branches, odd and even lanes apart (the study's section 5.1 and Table
// 2, as a diverged program pays it). On sm_90 the converged chain of gpu.warp.coalesced-sync
// compiles to NOPs; here every sync crosses the WARPSYNC of the diverged path
// (warp/detail/warp_groups.cuh, SplitGroup), and the branch around it is timed with it.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct CoalescedSyncDiverged {
  static inline const MethodInfo info{
      .name = "gpu.warp.coalesced-sync-diverged",
      .description =
          "coalesced group of group_size lanes (made by a branch) .sync() reached from two "
          "branches (odd and even lanes) (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::diverged}}};
  using Group = warp_detail::Split<warp_detail::Coalesced>;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::CoalescedSyncDiverged>)
