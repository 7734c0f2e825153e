// gpu.warp.tile-shuffle: a dependent chain of shuffles through a cg::tiled_partition<N> tile (the
// study (Zhang, Wahib, Zhang, Matsuoka), section 5.1, Table 2). Latency with one warp, throughput
// at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct TileShuffle {
  static inline const MethodInfo info{
      .name = "gpu.warp.tile-shuffle",
      .description = "shfl through a tile of group_size threads, dependent chain (clock technique)",
      .timed = {{.instruction = "SHFL"}}};
  using Group = warp_detail::Tiles;
  using Action = warp_detail::Shuffle;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::TileShuffle>)
