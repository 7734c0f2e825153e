// gpubarrier: a grid barrier that meets inside thread-block clusters first (sm_90 and newer), for
// kernels launched in clusters whose clusters are all resident at once (launch_clustered, or any
// grid that check_cluster_residency accepts).
//
//   gpubarrier::GridBarrierState state;
//   gpubarrier::make_grid_barrier(&state, stream, /*watchdog_ns=*/2'000'000'000);
//   ... in the kernel, every thread of every block:
//   gpubarrier::ClusterGridBarrier bar(state);
//   for (...) { work(); if (!bar.sync()) return; }    // false: the watchdog gave up
//   ... on the host (a 1-D grid of `blocks` blocks in clusters of `cluster_size`):
//   gpubarrier::launch_clustered(kernel, blocks, cluster_size, threads, 0, stream, state, ...);
//   gpubarrier::grid_barrier_timed_out(state, stream, &timed_out);
//   gpubarrier::free_grid_barrier(&state, stream);
//
// The algorithm: the blocks of a cluster meet on the cluster's hardware barrier
// (barrier.cluster), then the cluster's first block (rank 0) alone adds 1 to the grid's 64-bit
// count, which only grows, and every block's leader polls the count until it reaches (barriers
// completed + 1) x clusters. The count sees one add per cluster instead of one per block; the
// price is the cluster barrier in front of it.
//
// Memory-ordering contract: grid_barrier.cuh's, unchanged. When sync() returns true in a thread
// T of the grid, every write that any thread of the grid made before it called the same
// barrier's sync() (the k-th call of each block) is visible to T and to every later read of T,
// at GPU scope (thread_scope_device). Writes of other GPUs or of the host are not covered.
//
// Why it holds under the PTX memory model: barrier.cluster.arrive.release by every thread of
// the cluster and barrier.cluster.wait.acquire by every thread make each thread's writes before
// its arrive happen before everything every thread of the cluster does after its wait (a
// release and an acquire at cluster scope, morally strong: the threads share the cluster). The
// first block's leader's add to the count, an acq_rel RMW at GPU scope after its wait, so
// releases the whole cluster's writes too (causality order is transitive, and release is
// cumulative); every cluster's add is an RMW of the one count, so the adds form a release
// sequence, and a leader's ld.acquire at GPU scope that reads the complete count synchronizes
// with every cluster's add; the bar.sync after the poll carries that to the block's threads.
//
// What the caller must do and must not do: grid_barrier.cuh's rules, with clusters:
// - every block of the grid calls sync() the same number of times, with all its threads (it
//   holds the cluster barrier and bar.sync). The cluster barrier counts a block that has exited
//   as arrived, so a block that leaves early is not waited for inside its cluster: the watchdog
//   sees a cluster none of whose blocks arrive, not one block of a cluster that stays away;
// - all clusters of the grid are resident at once: launch_clustered checks it
//   (check_cluster_residency, residency.cuh); the grid is launched with a cluster dimension;
// - a state serves one kernel at a time, one grid shape and one barrier type (the count counts
//   clusters here, blocks in GridBarrier): reset_grid_barrier before a launch of another shape
//   or type, and after a launch that timed out;
// - make, reset, launch and free in one stream's order (or synchronize between them).
// The watchdog watches the poll of the count in every block; the cluster barrier itself waits
// without one.
//
// Requirements: C++17, CUDA 12 or newer, sm_90 or newer (thread-block clusters); compiled for an
// older architecture, sync() traps. Header only.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>

#include "gpubarrier/grid_barrier.cuh"
#include "gpubarrier/residency.cuh"
#include "gpubarrier/watchdog.cuh"

namespace gpubarrier {
namespace detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPUBARRIER_DETAIL_CLUSTERS 0
#else
#define GPUBARRIER_DETAIL_CLUSTERS 1
#endif

// This block's rank in its cluster (0 without clusters).
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r = 0;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
  return r;
}

// The clusters of the grid.
__device__ __forceinline__ unsigned grid_clusters() {
  unsigned x = 1, y = 1, z = 1;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(x));
  asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(y));
  asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(z));
#endif
  return x * y * z;
}

// The cluster's hardware barrier, every thread of every block: arrive (release), wait (acquire).
__device__ __forceinline__ void cluster_meet() {
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
#else
  __trap();
#endif
}

#undef GPUBARRIER_DETAIL_CLUSTERS

}  // namespace detail

// The barrier as one block sees it: made by every thread of every block, once per kernel, before
// the first sync(). W: the watchdog type (watchdog.cuh).
template <class W = Watchdog>
class BasicClusterGridBarrier {
 public:
  using Word = unsigned long long;

  // As in BasicGridBarrier: the count is a multiple of the clusters when a launch starts, and the
  // first barrier cannot complete before this block's cluster arrives.
  __device__ BasicClusterGridBarrier(Word* count, const W& watchdog)
      : count_(count),
        watchdog_(watchdog),
        clusters_(detail::grid_clusters()),
        first_(detail::cluster_rank() == 0) {
    if (leader()) epoch_ = Ref(*count_).load(cuda::memory_order_relaxed) / clusters_;
  }

  // Every thread of the block; true when every block of the grid has arrived at this barrier.
  // false in every thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    detail::cluster_meet();  // every write of the cluster's threads precedes the first's add
    bool gave_up = false;
    if (leader()) {
      const Word complete = ++epoch_ * clusters_;
      Ref count(*count_);
      if (first_) count.fetch_add(1, cuda::memory_order_acq_rel);
      gave_up = !detail::spin_until(
          watchdog_, [&] { return count.load(cuda::memory_order_acquire) >= complete; });
    }
    return !__syncthreads_or(gave_up);
  }

 private:
  using Ref = cuda::atomic_ref<Word, cuda::thread_scope_device>;

  __device__ static bool leader() {
    return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  }

  Word* count_;
  W watchdog_;
  Word clusters_;
  bool first_;      // this block is its cluster's first (rank 0): it adds for the cluster
  Word epoch_ = 0;  // the leader's: the barriers this grid completed on the count
};

class ClusterGridBarrier : public BasicClusterGridBarrier<Watchdog> {
 public:
  __device__ explicit ClusterGridBarrier(const GridBarrierState& s)
      : BasicClusterGridBarrier<Watchdog>(s.count, s.watchdog) {}
};

}  // namespace gpubarrier
