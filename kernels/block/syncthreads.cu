// gpu.block.syncthreads: __syncthreads() (the study (Zhang, Wahib, Zhang, Matsuoka), section 5.2,
// the workshop version's Table 5). Latency with one block and throughput over blocks/SM, clock
// technique; kernels in detail/block_barrier.cuh.
#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb::block {

struct Syncthreads {
  static inline const MethodInfo info{
      .name = "gpu.block.syncthreads",
      .description =
          "__syncthreads() latency in one block and throughput over blocks/SM (clock technique)",
      .timed = {{.instruction = "BAR.SYNC"}}};
  __device__ static void sync() { __syncthreads(); }
};

}  // namespace gb::block

GB_REGISTER_METHOD(gb::block_detail::BlockBarrierMethod<gb::block::Syncthreads>)
