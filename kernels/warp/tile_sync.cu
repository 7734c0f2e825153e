// gpu.warp.tile-sync: cg::tiled_partition<N>(block).sync() for tiles of N = group_size threads (the
// study (Zhang, Wahib, Zhang, Matsuoka), section 5.1, Table 2). Latency with one warp, throughput
// at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct TileSync {
  static inline const MethodInfo info{
      .name = "gpu.warp.tile-sync",
      .description =
          "cg::tiled_partition<N>().sync() for tiles of group_size threads (clock technique)",
      .timed = {{.instruction = "WARPSYNC", .sm90 = TimedPath::absent}}};
  using Group = warp_detail::Tiles;
  using Action = warp_detail::Sync;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::TileSync>)
