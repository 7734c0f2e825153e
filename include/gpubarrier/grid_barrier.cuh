// gpubarrier: a grid barrier for kernels whose blocks are all resident at once (a cooperative
// launch, or any grid that check_residency accepts).
//
//   gpubarrier::GridBarrierState state;
//   gpubarrier::make_grid_barrier(&state, stream, /*watchdog_ns=*/2'000'000'000);
//   ... in the kernel, every thread of every block:
//   gpubarrier::GridBarrier bar(state);
//   for (...) { work(); if (!bar.sync()) return; }    // false: the watchdog gave up
//   ... on the host:
//   gpubarrier::launch_cooperative(kernel, grid, block, 0, stream, state, ...);
//   gpubarrier::grid_barrier_timed_out(state, stream, &timed_out);
//   gpubarrier::free_grid_barrier(&state, stream);
//
// The algorithm: one 64-bit counter that only grows. Each block's leader adds 1 to it and polls
// it until it reaches (barriers completed + 1) x blocks; nothing is ever reset, so no block waits
// for a reset or a second word before it may leave.
//
// Memory-ordering contract. When sync() returns true in a thread T of the grid, every write
// that any thread of the grid made before it called the same barrier's sync() (the k-th call of
// each block) is visible to T and to every later read of T, at GPU scope (thread_scope_device):
// the memory of this GPU that the grid reads and writes, global or shared-with-the-block. Writes
// of other GPUs or of the host are not covered: a kernel that reads peers' memory needs a
// system-scope barrier (device_barrier.cuh).
//
// Why it holds under the PTX memory model: bar.sync (__syncthreads) orders the block's writes
// before its leader's add, a release (or acq_rel) atomic at GPU scope (a release pattern); every
// add of the barrier is an RMW of the one counter, so they form a release sequence in the
// counter's modification order, and the leader's acquire load that reads the complete count
// synchronizes with every block's release; the bar.sync after the wait carries that to the
// block's threads. The add needs no acquire half: what the leader acquires, it acquires by the
// load that ends its wait.
//
// What the caller must do and must not do:
// - every block of the grid calls sync() the same number of times, with all its threads (it
//   holds bar.sync); a block that leaves early hangs the others (the watchdog ends the hang);
// - all blocks of the grid are resident at once: launch cooperatively (launch_cooperative), or
//   check with check_residency (residency.cuh); a grid that cannot be resident deadlocks;
// - one state serves one kernel at a time: never two launches that may run at once (two streams,
//   or a stream and a graph), and all launches on one state have the same number of blocks;
//   reset it (reset_grid_barrier) before a launch of another grid size, and after a launch that
//   timed out (its counter is left mid-barrier);
// - make, reset, launch and free in one stream's order (or synchronize between them).
//
// Requirements: C++17, CUDA 12 or newer, sm_70 or newer. Header only.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "gpubarrier/residency.cuh"
#include "gpubarrier/watchdog.cuh"

namespace gpubarrier {

// What a kernel gets by value: the counter and the watchdog. Trivially copyable.
struct GridBarrierState {
  unsigned long long* count = nullptr;  // device memory; a multiple of the grid between launches
  Watchdog watchdog;                    // budget 0: none
};

// How a block's leader arrives at the counter: with an acq_rel add (an atom whose acquire half
// invalidates the SM's L1 after it), or with a release reduction (red.release: no acquire half,
// no value back). Either is correct: the leader's acquire poll is what synchronizes with the
// other blocks' releases.
enum class GridArrival { acq_rel, release };

// The barrier as one block sees it: made by every thread of every block, once per kernel, before
// the first sync(). W: the watchdog type (watchdog.cuh). PauseNs: 0, the leader polls back to
// back; otherwise a failed poll sleeps about PauseNs (__nanosleep) before the next, so that fewer
// polls reach the counter's line while the last blocks' adds travel to it. Arrival: above.
// GridBarrier takes the defaults; the other tunings are benchmark designs (docs/library.md says
// where each was measured), for code that measured its own shape.
template <class W = Watchdog, unsigned PauseNs = 0, GridArrival Arrival = GridArrival::acq_rel>
class BasicGridBarrier {
 public:
  using Word = unsigned long long;

  // Every launch before this one completed all its barriers (or the state was reset), so the
  // count is a multiple of the grid when this launch starts; a leader that reads it after other
  // blocks arrived at the first barrier sees fewer than `blocks` more, because that barrier cannot
  // complete without this block.
  __device__ BasicGridBarrier(Word* count, const W& watchdog)
      : count_(count), watchdog_(watchdog), blocks_(Word(gridDim.x) * gridDim.y * gridDim.z) {
    if (leader()) epoch_ = Ref(*count_).load(cuda::memory_order_relaxed) / blocks_;
  }

  // Every thread of the block; true when every block of the grid has arrived at this barrier.
  // false in every thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    __syncthreads();  // the whole block's writes precede its leader's release
    bool gave_up = false;
    // The leader is thread (0, 0, 0). A 1-D block tests threadIdx.x alone: nvcc then issues the
    // leader's add as one atomic, where under a test of three indices it first sums the adds of
    // the warp's active lanes (vote, popc) on the barrier's critical path.
    if (blockDim.y == 1 && blockDim.z == 1) {
      if (threadIdx.x == 0) gave_up = !arrive_and_wait();
    } else if (leader()) {
      gave_up = !arrive_and_wait();
    }
    return !__syncthreads_or(gave_up);
  }

 private:
  using Ref = cuda::atomic_ref<Word, cuda::thread_scope_device>;

  // The leader's part: this block's add, then the poll until every block added.
  __device__ bool arrive_and_wait() {
    const Word complete = ++epoch_ * blocks_;
    Ref count(*count_);
    if constexpr (Arrival == GridArrival::release)
      asm volatile("red.release.gpu.add.u64 [%0], 1;" ::"l"(count_) : "memory");
    else
      count.fetch_add(1, cuda::memory_order_acq_rel);
    return detail::spin_until(watchdog_, [&] {
      if (count.load(cuda::memory_order_acquire) >= complete) return true;
      if constexpr (PauseNs != 0) __nanosleep(PauseNs);
      return false;
    });
  }

  __device__ static bool leader() {
    return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  }

  Word* count_;
  W watchdog_;
  Word blocks_;
  Word epoch_ = 0;  // the leader's: the barriers this grid completed on the counter
};

class GridBarrier : public BasicGridBarrier<Watchdog> {
 public:
  __device__ explicit GridBarrier(const GridBarrierState& s)
      : BasicGridBarrier<Watchdog>(s.count, s.watchdog) {}
};

// ---- host ----------------------------------------------------------------------------------

// Allocates the counter and the watchdog's flag (stream-ordered) and zeroes them on `stream`.
// watchdog_ns: how long one block may wait at one barrier before the grid gives up; 0: no
// watchdog.
inline cudaError_t make_grid_barrier(GridBarrierState* state, cudaStream_t stream,
                                     std::uint64_t watchdog_ns = 0) {
  void* p = nullptr;
  cudaError_t e = cudaMallocAsync(&p, 2 * sizeof(unsigned long long), stream);
  if (e != cudaSuccess) return e;
  e = cudaMemsetAsync(p, 0, 2 * sizeof(unsigned long long), stream);
  if (e != cudaSuccess) {
    cudaFreeAsync(p, stream);
    return e;
  }
  auto* words = static_cast<unsigned long long*>(p);
  state->count = words;
  state->watchdog = Watchdog{watchdog_ns, reinterpret_cast<unsigned*>(words + 1)};
  return cudaSuccess;
}

// Zeroes the counter and the watchdog's flag on `stream`: after a timeout, before a launch of
// another grid size. No kernel on this state may run meanwhile.
inline cudaError_t reset_grid_barrier(const GridBarrierState& state, cudaStream_t stream) {
  return cudaMemsetAsync(state.count, 0, 2 * sizeof(unsigned long long), stream);
}

// Whether a launch on this state gave up (its watchdog expired). Synchronizes `stream`.
inline cudaError_t grid_barrier_timed_out(const GridBarrierState& state, cudaStream_t stream,
                                          bool* timed_out) {
  unsigned flag = 0;
  cudaError_t e =
      cudaMemcpyAsync(&flag, state.watchdog.tripped, sizeof flag, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  *timed_out = flag != 0;
  return e;
}

inline cudaError_t free_grid_barrier(GridBarrierState* state, cudaStream_t stream) {
  const cudaError_t e = state->count ? cudaFreeAsync(state->count, stream) : cudaSuccess;
  *state = GridBarrierState{};
  return e;
}

}  // namespace gpubarrier
