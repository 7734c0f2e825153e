// gpu.block.syncthreads: __syncthreads() (seed 001 section 5.2, seed 002 Table 5). Latency with
// one block and throughput over blocks/SM, clock technique; kernels in detail/block_barrier.cuh.
#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb {
namespace {

using block_detail::BlockBarrier;

class Syncthreads final : public block_detail::BlockBarrierMethod<BlockBarrier::syncthreads> {
 public:
  std::string_view name() const override { return "gpu.block.syncthreads"; }
  std::string_view description() const override {
    return "__syncthreads() latency in one block and throughput over blocks/SM (clock technique)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::Syncthreads)
