// gpu.warp.tile-shuffle: a dependent chain of shuffles through a cg::tiled_partition<N> tile
// (seed 001 section 5.1, Table 2). Latency with one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb {
namespace {

using warp_detail::WarpAction;
using warp_detail::WarpGroup;

class TileShuffle final : public warp_detail::WarpMethod<WarpGroup::tile, WarpAction::shuffle> {
 public:
  std::string_view name() const override { return "gpu.warp.tile-shuffle"; }
  std::string_view description() const override {
    return "shfl through a tile of group_size threads, dependent chain (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::TileShuffle)
