// gpu.grid.cuda-barrier-threads: libcu++'s cuda::barrier<cuda::thread_scope_device> with one
// arrival per thread, as its documentation shows it (grid/cuda_barrier.cuh).
#include <string_view>

#include "grid/cuda_barrier.cuh"

namespace gb::grid {

struct CudaBarrierPerThread : CudaBarrierPolicy<CudaBarrierArrivals::per_thread> {
  static inline const MethodInfo info{
      .name = "gpu.grid.cuda-barrier-threads",
      .description =
          "libcu++ cuda::barrier<thread_scope_device>, arrive_and_wait() by every thread of the "
          "grid (differential technique)"};
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CudaBarrierPerThread>)
