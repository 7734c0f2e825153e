// gpu.block.cg-sync: cg::this_thread_block().sync(), the cooperative-groups spelling of the block
// barrier, measured exactly like gpu.block.syncthreads so the two can be compared row by row.
#include <cooperative_groups.h>

#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb::block {

struct CgSync {
  static inline const MethodInfo info{.name = "gpu.block.cg-sync",
                                      .description =
                                          "cg::this_thread_block().sync() latency in one block and "
                                          "throughput over blocks/SM (clock technique)",
                                      .timed = {{.instruction = "BAR.SYNC"}}};
  __device__ static void sync() { cooperative_groups::this_thread_block().sync(); }
};

}  // namespace gb::block

GB_REGISTER_METHOD(gb::block_detail::BlockBarrierMethod<gb::block::CgSync>)
