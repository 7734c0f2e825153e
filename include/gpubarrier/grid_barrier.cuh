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
// The algorithm, by the grid's size (grid_barrier_design says which a grid of N blocks gets,
// grid_barrier_design_name its name): the flat count (BasicCountGridBarrier below), one 64-bit
// counter that only grows, to which each block's leader adds 1 and which it polls until it reaches
// (barriers completed + 1) x blocks, nothing ever reset; or, for large grids, the two-level
// barrier (tree_grid_barrier.cuh), whose blocks meet in groups of 4 first so that the top count
// sees a quarter of the arrivals. Both designs are also usable by name.
//
// Memory-ordering contract. When sync() returns true in a thread T of the grid, every write
// that any thread of the grid made before it called the same barrier's sync() (the k-th call of
// each block) is visible to T and to every later read of T, at GPU scope (thread_scope_device):
// the memory of this GPU that the grid reads and writes, global or shared-with-the-block. Writes
// of other GPUs or of the host are not covered: a kernel that reads peers' memory needs a
// system-scope barrier (device_barrier.cuh).
//
// Why it holds under the PTX memory model, for the flat count: bar.sync (__syncthreads) orders the
// block's writes before its leader's add, an acq_rel atomic at GPU scope (a release pattern);
// every add of the barrier is an RMW of the one counter, so they form a release sequence in the
// counter's modification order, and the leader's acquire load that reads the complete count
// synchronizes with every block's release; the bar.sync after the wait carries that to the
// block's threads. The two-level design's argument is in its header.
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
#include <new>

#include "gpubarrier/block_leader.cuh"
#include "gpubarrier/residency.cuh"
#include "gpubarrier/tree_grid_barrier.cuh"
#include "gpubarrier/watchdog.cuh"

namespace gpubarrier {

// What a kernel gets by value: the counter and the watchdog. Trivially copyable.
struct GridBarrierState {
  unsigned long long* count = nullptr;  // device memory; a multiple of the grid between launches
  Watchdog watchdog;                    // budget 0: none
  std::size_t words = 0;                // 64-bit words at `count`: room for every design's lines
};

// The flat design: one 64-bit count that only grows. Each block's leader adds 1 to it and polls
// it until it reaches (barriers completed + 1) x blocks; nothing is ever reset, so no block waits
// for a reset or a second word before it may leave. Made by every thread of every block, once per
// kernel, before the first sync(). W: the watchdog type (watchdog.cuh).
template <class W = Watchdog>
class BasicCountGridBarrier {
 public:
  using Word = unsigned long long;

  // Every launch before this one completed all its barriers (or the state was reset), so the
  // count is a multiple of the grid when this launch starts; a leader that reads it after other
  // blocks arrived at the first barrier sees fewer than `blocks` more, because that barrier cannot
  // complete without this block.
  __device__ BasicCountGridBarrier(Word* count, const W& watchdog)
      : count_(count), watchdog_(watchdog), blocks_(Word(gridDim.x) * gridDim.y * gridDim.z) {
    if (detail::block_leader()) epoch_ = Ref(*count_).load(cuda::memory_order_relaxed) / blocks_;
  }

  // Every thread of the block; true when every block of the grid has arrived at this barrier.
  // false in every thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    return detail::block_sync([&] { return arrive_and_wait(); });
  }

 private:
  using Ref = cuda::atomic_ref<Word, cuda::thread_scope_device>;

  // The leader's part: this block's add, then the poll until every block added.
  __device__ bool arrive_and_wait() {
    const Word complete = ++epoch_ * blocks_;
    Ref count(*count_);
    count.fetch_add(1, cuda::memory_order_acq_rel);
    return detail::spin_until(watchdog_,
                              [&] { return count.load(cuda::memory_order_acquire) >= complete; });
  }

  Word* count_;
  W watchdog_;
  Word blocks_;
  Word epoch_ = 0;  // the leader's: the barriers this grid completed on the counter
};

// The designs GridBarrier picks from, by the grid's number of blocks.
enum class GridBarrierDesign { count, tree4 };

// The design GridBarrier uses for a grid of `blocks` blocks: the flat count up to
// kTreeFromBlocks blocks, the two-level barrier in groups of 4 from there, where the flat count's
// arrivals queue on its one line (docs/library.md has the figures of both at every shape).
inline constexpr unsigned long long kTreeFromBlocks = 512;
__host__ __device__ constexpr GridBarrierDesign grid_barrier_design(unsigned long long blocks) {
  return blocks >= kTreeFromBlocks ? GridBarrierDesign::tree4 : GridBarrierDesign::count;
}
// Its name, to say which design a launch uses: "count" or "tree-4".
inline const char* grid_barrier_design_name(unsigned long long blocks) {
  return grid_barrier_design(blocks) == GridBarrierDesign::tree4 ? "tree-4" : "count";
}

// The barrier as one block sees it: made by every thread of every block, once per kernel, before
// the first sync(); it runs the design grid_barrier_design picks for this grid. W: the watchdog
// type (watchdog.cuh).
template <class W = Watchdog>
class BasicGridBarrier {
 public:
  using Word = unsigned long long;

  __device__ BasicGridBarrier(Word* words, const W& watchdog)
      : design_(grid_barrier_design(Word(gridDim.x) * gridDim.y * gridDim.z)) {
    if (design_ == GridBarrierDesign::tree4)
      new (&tree_) Tree(words, watchdog);
    else
      new (&count_) Count(words, watchdog);
  }

  // Every thread of the block; true when every block of the grid has arrived at this barrier.
  // false in every thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    return design_ == GridBarrierDesign::tree4 ? tree_.sync() : count_.sync();
  }

 private:
  using Count = BasicCountGridBarrier<W>;
  using Tree = BasicTreeGridBarrier<W, 4>;
  GridBarrierDesign design_;
  union {
    Count count_;
    Tree tree_;
  };
};

class GridBarrier : public BasicGridBarrier<Watchdog> {
 public:
  __device__ explicit GridBarrier(const GridBarrierState& s)
      : BasicGridBarrier<Watchdog>(s.count, s.watchdog) {}
};

// ---- host ----------------------------------------------------------------------------------

// The 64-bit words a state holds on the current device: the lines of the two-level design
// (tree_grid_barrier.cuh) for the largest grid the GPU can hold at once in its smallest groups,
// which covers the count and the flag of the other designs.
inline cudaError_t grid_barrier_words(std::size_t* words) {
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, device);
  *words = static_cast<std::size_t>(
      tree_grid_barrier_words(static_cast<unsigned long long>(sms) * per_sm, kSmallestTreeGroup));
  return e;
}

// Allocates the barrier's words and zeroes them on `stream` (stream-ordered); the watchdog's flag
// is word 1. watchdog_ns: how long one block may wait at one barrier before the grid gives up; 0:
// no watchdog.
inline cudaError_t make_grid_barrier(GridBarrierState* state, cudaStream_t stream,
                                     std::uint64_t watchdog_ns = 0) {
  std::size_t words = 0;
  cudaError_t e = grid_barrier_words(&words);
  if (e != cudaSuccess) return e;
  void* p = nullptr;
  e = cudaMallocAsync(&p, words * sizeof(unsigned long long), stream);
  if (e != cudaSuccess) return e;
  e = cudaMemsetAsync(p, 0, words * sizeof(unsigned long long), stream);
  if (e != cudaSuccess) {
    cudaFreeAsync(p, stream);
    return e;
  }
  auto* w = static_cast<unsigned long long*>(p);
  state->count = w;
  state->watchdog = Watchdog{watchdog_ns, reinterpret_cast<unsigned*>(w + 1)};
  state->words = words;
  return cudaSuccess;
}

// Zeroes the barrier's words and the watchdog's flag on `stream`: after a timeout, before a launch
// of another grid size. No kernel on this state may run meanwhile.
inline cudaError_t reset_grid_barrier(const GridBarrierState& state, cudaStream_t stream) {
  return cudaMemsetAsync(state.count, 0, state.words * sizeof(unsigned long long), stream);
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
