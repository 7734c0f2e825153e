// gpu.warp.syncwarp: __syncwarp(mask) with group_size lanes in the mask (the study (Zhang, Wahib,
// Zhang, Matsuoka), section 5.1, Table 2). Latency with one warp, throughput at the best resident
// shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct Syncwarp {
  static inline const MethodInfo info{
      .name = "gpu.warp.syncwarp",
      .description = "__syncwarp(mask), group_size = popcount(mask) (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::absent}}};
  using Group = warp_detail::Masked;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::Syncwarp>)
