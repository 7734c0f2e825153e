// gpu.grid.cuda-barrier: libcu++'s cuda::barrier<cuda::thread_scope_device> with one arrival per
// block (grid/cuda_barrier.cuh).
#include <string_view>

#include "grid/cuda_barrier.cuh"

namespace gb::grid {

struct CudaBarrierPerBlock : CudaBarrierPolicy<CudaBarrierArrivals::per_block> {
  static inline const MethodInfo info{
      .name = "gpu.grid.cuda-barrier",
      .description =
          "libcu++ cuda::barrier<thread_scope_device>, one arrive_and_wait() per block between two "
          "__syncthreads (differential technique)"};
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CudaBarrierPerBlock>)
