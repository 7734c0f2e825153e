// gpu.warp.syncwarp: __syncwarp(mask) with group_size lanes in the mask (seed 001 section 5.1,
// Table 2). Latency with one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb {
namespace {

using warp_detail::WarpAction;
using warp_detail::WarpGroup;

class Syncwarp final : public warp_detail::WarpMethod<WarpGroup::mask, WarpAction::sync> {
 public:
  std::string_view name() const override { return "gpu.warp.syncwarp"; }
  std::string_view description() const override {
    return "__syncwarp(mask), group_size = popcount(mask) (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::Syncwarp)
