// gpu.block.cg-sync: cg::this_thread_block().sync(), the cooperative-groups spelling of the block
// barrier, measured exactly like gpu.block.syncthreads so the two can be compared row by row.
#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb {
namespace {

using block_detail::BlockBarrier;

class CgBlockSync final : public block_detail::BlockBarrierMethod<BlockBarrier::cg> {
 public:
  std::string_view name() const override { return "gpu.block.cg-sync"; }
  std::string_view description() const override {
    return "cg::this_thread_block().sync() latency in one block and throughput over blocks/SM "
           "(clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CgBlockSync)
