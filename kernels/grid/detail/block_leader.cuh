// The block side that the grid barrier designs of grid/detail/ share, as the public GridBarrier
// (include/gpubarrier/grid_barrier.cuh) has it: bar.sync so that the whole block's writes precede
// its leader's arrival, the leader's part (its arrival and its wait), then bar.sync again, which
// carries what the leader acquired to every thread and tells every thread whether the leader gave
// up.
#pragma once

#include <cuda_runtime.h>

namespace gb::grid {

__device__ inline bool block_leader() {
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

// Every thread of the block; `leader_part()` runs in thread (0, 0, 0) alone and returns false
// when it gave up; then every thread returns false.
template <class LeaderPart>
__device__ __forceinline__ bool block_sync(LeaderPart leader_part) {
  __syncthreads();
  bool gave_up = false;
  // A 1-D block tests threadIdx.x alone: nvcc then issues the leader's atomics one by one, where
  // under a test of three indices it first sums the adds of the warp's active lanes (vote, popc)
  // on the barrier's critical path.
  if (blockDim.y == 1 && blockDim.z == 1) {
    if (threadIdx.x == 0) gave_up = !leader_part();
  } else if (block_leader()) {
    gave_up = !leader_part();
  }
  return !__syncthreads_or(gave_up);
}

}  // namespace gb::grid
