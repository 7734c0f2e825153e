// gpu.warp.coalesced-sync: cg::coalesced_threads().sync() in a branch taken by group_size lanes
// (the study (Zhang, Wahib, Zhang, Matsuoka), section 5.1, Table 2). Latency with one warp,
// throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct CoalescedSync {
  static inline const MethodInfo info{
      .name = "gpu.warp.coalesced-sync",
      .description =
          "coalesced group of group_size lanes (made by a branch) .sync() (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::absent}}};
  using Group = warp_detail::Coalesced;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::CoalescedSync>)
