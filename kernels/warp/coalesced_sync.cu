// gpu.warp.coalesced-sync: cg::coalesced_threads().sync() in a branch taken by group_size lanes
// (seed 001 section 5.1, Table 2). Latency with one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb {
namespace {

using warp_detail::WarpAction;
using warp_detail::WarpGroup;

class CoalescedSync final : public warp_detail::WarpMethod<WarpGroup::coalesced, WarpAction::sync> {
 public:
  std::string_view name() const override { return "gpu.warp.coalesced-sync"; }
  std::string_view description() const override {
    return "coalesced group of group_size lanes (made by a branch) .sync() (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CoalescedSync)
