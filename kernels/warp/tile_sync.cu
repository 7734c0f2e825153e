// gpu.warp.tile-sync: cg::tiled_partition<N>(block).sync() for tiles of N = group_size threads
// (seed 001 section 5.1, Table 2). Latency with one warp, throughput at the best resident shape.
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb {
namespace {

using warp_detail::WarpAction;
using warp_detail::WarpGroup;

class TileSync final : public warp_detail::WarpMethod<WarpGroup::tile, WarpAction::sync> {
 public:
  std::string_view name() const override { return "gpu.warp.tile-sync"; }
  std::string_view description() const override {
    return "cg::tiled_partition<N>().sync() for tiles of group_size threads (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::TileSync)
