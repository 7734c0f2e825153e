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
// The algorithm: the blocks of a cluster meet in the shared memory of the cluster's first block
// (rank 0) through distributed shared memory: each other block adds 1 to a word there. Block
// 0's leader, once every block of its cluster arrived, adds 1 to the grid's 64-bit count, which
// only grows, and polls it until it reaches (barriers completed + 1) x clusters, as
// grid_barrier.cuh's blocks all do; then it writes the barrier's number into a word in each
// other block's shared memory, which that block polls. The count sees one add per cluster
// instead of one per block; the price is the two hops inside the cluster.
//
// Memory-ordering contract: grid_barrier.cuh's, unchanged. When sync() returns true in a thread
// T of the grid, every write that any thread of the grid made before it called the same
// barrier's sync() (the k-th call of each block) is visible to T and to every later read of T,
// at GPU scope (thread_scope_device). Writes of other GPUs or of the host are not covered.
//
// Why it holds under the PTX memory model: bar.sync orders a block's writes before its leader's
// add to block 0's word, a red.release at cluster scope; those adds are RMWs of one word, so
// block 0's leader's ld.acquire at cluster scope that reads their full count synchronizes with
// each of them. Its red.release at GPU scope on the count then releases them too (causality
// order is transitive, and release is cumulative), and every cluster's adds form a release
// sequence of the count, so the ld.acquire at GPU scope that reads the complete count
// synchronizes with every cluster's release. fence.acq_rel at cluster scope orders that acquire
// before block 0's stores of the barrier's number into the other blocks' words (a release
// pattern); a block whose ld.acquire at cluster scope reads the number synchronizes with it.
// Every synchronizing pair is morally strong (both atomic, both in scope: a cluster's blocks
// share the cluster scope, every block the GPU scope); bar.sync after the waits carries the
// acquire to the block's threads.
//
// What the caller must do and must not do: grid_barrier.cuh's rules, with clusters:
// - every block of the grid calls sync() the same number of times, with all its threads; every
//   thread of every block makes the barrier (its constructor holds a cluster barrier);
// - all clusters of the grid are resident at once: launch_clustered checks it
//   (check_cluster_residency, residency.cuh); the grid is launched with a cluster dimension;
// - a state serves one kernel at a time, one grid shape and one barrier type (the count counts
//   clusters here, blocks in GridBarrier): reset_grid_barrier before a launch of another shape
//   or type, and after a launch that timed out;
// - make, reset, launch and free in one stream's order (or synchronize between them).
// When the watchdog gives up, sync() returns false in every thread of every block that calls it,
// after the blocks of each cluster met once more on the cluster's hardware barrier: no block
// leaves while a peer may still write into its shared memory. A block that exited counts as
// arrived at that barrier; a block that never returns from elsewhere keeps its cluster waiting.
//
// Requirements: C++17, CUDA 12 or newer, sm_90 or newer (clusters and distributed shared memory);
// compiled for an older architecture, sync() traps. Header only.
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

// The blocks in this block's cluster, and this block's rank among them (0 without clusters).
__device__ __forceinline__ unsigned cluster_blocks() {
  unsigned n = 1;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
#endif
  return n;
}

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r = 0;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
  return r;
}

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

// A shared-memory word of this block (shared::cta address) as block `rank` of the cluster holds
// it (shared::cluster address).
__device__ __forceinline__ unsigned in_rank(unsigned word, unsigned rank) {
  unsigned r = word;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(word), "r"(rank));
#endif
  return r;
}

__device__ __forceinline__ void add_release_cluster(unsigned remote_word) {
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("red.release.cluster.shared::cluster.add.u32 [%0], 1;" ::"r"(remote_word)
               : "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void fence_cluster() {
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void store_relaxed_cluster(unsigned remote_word, unsigned v) {
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0], %1;" ::"r"(remote_word), "r"(v)
               : "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ unsigned load_acquire_cluster(unsigned word) {
  unsigned v = 0;
#if GPUBARRIER_DETAIL_CLUSTERS
  asm volatile("ld.acquire.cluster.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(word) : "memory");
#else
  __trap();
#endif
  return v;
}

// v has reached `target` on a 32-bit word that only grows and may wrap.
__device__ __forceinline__ bool reached(unsigned v, unsigned target) {
  return static_cast<int>(v - target) >= 0;
}

#undef GPUBARRIER_DETAIL_CLUSTERS

}  // namespace detail

// The barrier as one block sees it: made by every thread of every block, once per kernel, before
// the first sync(). W: the watchdog type (watchdog.cuh).
template <class W = Watchdog>
class BasicClusterGridBarrier {
 public:
  using Word = unsigned long long;

  // As in BasicGridBarrier, the count is a multiple of the clusters when a launch starts. The
  // words are zeroed, then the cluster meets, so that no peer writes them before.
  __device__ BasicClusterGridBarrier(Word* count, const W& watchdog)
      : count_(count),
        watchdog_(watchdog),
        clusters_(detail::grid_clusters()),
        blocks_(detail::cluster_blocks()),
        rank_(detail::cluster_rank()),
        leader_(threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    if (leader_) {
      unsigned* w = words();
      w[kArrived] = 0;
      w[kReleased] = 0;
      if (rank_ == 0)
        epoch_ = cuda::atomic_ref<Word, cuda::thread_scope_device>(*count_).load(
                     cuda::memory_order_relaxed) /
                 clusters_;
    }
    detail::cluster_meet();
  }

  // Every thread of the block; true when every block of the grid has arrived at this barrier.
  // false in every thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    __syncthreads();  // the whole block's writes precede its leader's release
    bool gave_up = false;
    if (leader_) {
      ++barriers_;
      const unsigned mine = static_cast<unsigned>(__cvta_generic_to_shared(words()));
      if (rank_ != 0) {
        detail::add_release_cluster(detail::in_rank(mine + 4 * kArrived, 0));
        gave_up = !detail::spin_until(watchdog_, [&] {
          return detail::reached(detail::load_acquire_cluster(mine + 4 * kReleased), barriers_);
        });
      } else {
        gave_up = !detail::spin_until(watchdog_, [&] {
          return detail::reached(detail::load_acquire_cluster(mine + 4 * kArrived),
                                 barriers_ * (blocks_ - 1));
        });
        if (!gave_up) gave_up = !grid_meet();
        if (!gave_up) {
          detail::fence_cluster();
          for (unsigned r = 1; r < blocks_; ++r)
            detail::store_relaxed_cluster(detail::in_rank(mine + 4 * kReleased, r), barriers_);
        }
      }
    }
    if (!__syncthreads_or(gave_up)) return true;
    detail::cluster_meet();  // no block leaves while a peer may still write its words
    return false;
  }

 private:
  enum : unsigned { kArrived, kReleased };  // the words: block 0's arrivals; the last release

  __device__ static unsigned* words() {
    __shared__ unsigned w[2];
    return w;
  }

  // Block 0's leader: this cluster's add to the count, then the poll until every cluster added.
  __device__ bool grid_meet() {
    const Word complete = ++epoch_ * clusters_;
    detail::add_release(count_);
    return detail::spin_until(watchdog_, [&] { return detail::load_acquire(count_) >= complete; });
  }

  Word* count_;
  W watchdog_;
  Word clusters_;
  unsigned blocks_, rank_;
  bool leader_;
  Word epoch_ = 0;         // block 0's leader: the barriers this grid completed on the count
  unsigned barriers_ = 0;  // each leader: the barriers its block crossed
};

class ClusterGridBarrier : public BasicClusterGridBarrier<Watchdog> {
 public:
  __device__ explicit ClusterGridBarrier(const GridBarrierState& s)
      : BasicClusterGridBarrier<Watchdog>(s.count, s.watchdog) {}
};

}  // namespace gpubarrier
