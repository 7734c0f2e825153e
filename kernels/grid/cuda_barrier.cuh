// The grid barrier that ships with CUDA in the grid frame (gpu.grid.cuda-barrier: one arrival per
// block; gpu.grid.cuda-barrier-threads: one per thread):
// libcu++'s cuda::barrier<cuda::thread_scope_device> in device memory, made on the host side of
// the frame by a one-thread kernel with the grid's arrival count. -barrier: one arrival per block
// (__syncthreads, thread 0's arrive_and_wait(), __syncthreads), the form that pays one atomic per
// block; -threads: every thread calls arrive_and_wait(), the form the barrier's documentation
// shows. Its arrive is an acq_rel add to one 64-bit word of phase, arrivals and expected count;
// its wait polls that word with a growing back-off. The wait takes no budget, so like grid.sync
// it cannot be interrupted and only runs with the whole grid.
#pragma once

#include <cuda/barrier>

#include <cstddef>
#include <new>
#include <string_view>

#include "grid/detail/grid_barrier.cuh"

namespace gb::grid {

using DeviceScopeBarrier = cuda::barrier<cuda::thread_scope_device>;

template <class Barrier>
__global__ void make_cuda_barrier(Barrier* bar, long arrivals) {
  new (bar) Barrier(arrivals);
}

enum class CudaBarrierArrivals { per_block, per_thread };

template <CudaBarrierArrivals A>
struct CudaBarrierPolicy {
  static constexpr Traits traits{};
  static std::size_t state_words(int) {
    static_assert(sizeof(DeviceScopeBarrier) % sizeof(unsigned) == 0);
    return sizeof(DeviceScopeBarrier) / sizeof(unsigned);
  }
  static void init_state(unsigned* state, int blocks, int threads) {
    const long arrivals =
        A == CudaBarrierArrivals::per_block ? long(blocks) : long(blocks) * threads;
    make_cuda_barrier<<<1, 1>>>(reinterpret_cast<DeviceScopeBarrier*>(state), arrivals);
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  class Block {
   public:
    __device__ Block(unsigned* state, const WatchdogArgs&)
        : bar_(reinterpret_cast<DeviceScopeBarrier*>(state)) {}
    __device__ bool sync() {
      if constexpr (A == CudaBarrierArrivals::per_block) {
        __syncthreads();  // the block's writes precede thread 0's arrival (a release)
        if (threadIdx.x == 0) bar_->arrive_and_wait();
        __syncthreads();  // thread 0's acquire reaches the block
      } else {
        bar_->arrive_and_wait();
      }
      return true;
    }

   private:
    DeviceScopeBarrier* bar_;
  };
};

}  // namespace gb::grid
