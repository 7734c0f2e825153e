// A block barrier as a file under kernels/block/ holds it (kernels/block/syncthreads.cu), for
// test_compile_fail.py: as it stands it registers; each case below breaks it one way, and the
// BlockBarrier concept (block/detail/block_barrier.cuh) must refuse it.
// CASE misspelt_info: "CompileFailBlock" "concept BlockBarrier"
// CASE missing_sync: "CompileFailBlock" "concept BlockBarrier"
#include "block/detail/block_barrier.cuh"
#include "core/registry.hpp"

namespace gb::block {

struct CompileFailBlock {
#if defined(GB_CASE_MISSPELT_INFO)
  static inline const MethodInfo infos{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.block.compile-fail",
      .description = "__syncthreads(), for a compile-time test (clock technique)",
      .timed = {{.instruction = "BAR.SYNC"}}};
#if !defined(GB_CASE_MISSING_SYNC)
  __device__ static void sync() { __syncthreads(); }
#endif
};

}  // namespace gb::block

GB_REGISTER_METHOD(gb::block_detail::BlockBarrierMethod<gb::block::CompileFailBlock>)
