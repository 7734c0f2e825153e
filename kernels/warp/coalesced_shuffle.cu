// gpu.warp.coalesced-shuffle: a dependent chain of shuffles through the coalesced group of
// group_size lanes (the study (Zhang, Wahib, Zhang, Matsuoka), section 5.1, Table 2). Latency with
// one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

struct CoalescedShuffle {
  static inline const MethodInfo info{
      .name = "gpu.warp.coalesced-shuffle",
      .description =
          "shfl through a coalesced group of group_size lanes, dependent chain (clock technique)",
      .timed = {{.instruction = "SHFL"}}};
  using Group = warp_detail::Coalesced;
  using Action = warp_detail::Shuffle;
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::CoalescedShuffle>)
