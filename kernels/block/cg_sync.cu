// gpu.block.cg-sync: cg::this_thread_block().sync(), the cooperative-groups spelling of the block
// barrier, measured exactly like gpu.block.syncthreads so the two can be compared row by row.
#include <cooperative_groups.h>

#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb::block {

struct CgSync {
  static constexpr std::string_view name = "gpu.block.cg-sync";
  static constexpr std::string_view description =
      "cg::this_thread_block().sync() latency in one block and throughput over blocks/SM "
      "(clock technique)";
  __device__ static void sync() { cooperative_groups::this_thread_block().sync(); }
};

}  // namespace gb::block

GB_REGISTER_METHOD(gb::block_detail::BlockBarrierMethod<gb::block::CgSync>)
