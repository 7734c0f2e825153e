// gpu.warp.coalesced-shuffle: a dependent chain of shuffles through the coalesced group of
// group_size lanes (seed 001 section 5.1, Table 2). Latency with one warp, throughput at the best
// resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb {
namespace {

using warp_detail::WarpAction;
using warp_detail::WarpGroup;

class CoalescedShuffle final
    : public warp_detail::WarpMethod<WarpGroup::coalesced, WarpAction::shuffle> {
 public:
  std::string_view name() const override { return "gpu.warp.coalesced-shuffle"; }
  std::string_view description() const override {
    return "shfl through a coalesced group of group_size lanes, dependent chain (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CoalescedShuffle)
