// A two-level grid barrier design. The blocks meet in groups of Group consecutive blocks
// first: each block's leader adds 1 to its group's count (a line of its own); the leader whose add
// completes its group's count adds 1 to the top count; the leader whose add completes the top
// count writes the barrier's epoch into a release flag; every other leader polls the flag. The
// top count sees one add per group instead of one per block, and the adds of different groups
// go to different lines, so they do not queue behind each other; the price is one more atomic
// round trip on the last group's path.
//
// Memory-ordering contract: the public GridBarrier's (include/gpubarrier/grid_barrier.cuh), at
// GPU scope.
// Why it holds under the PTX memory model: bar.sync orders the block's writes before its leader's
// acq_rel add to its group's count; the group's adds form a release sequence, so the add that
// completes it (an acquire) synchronizes with every block of the group, and its own acq_rel add to
// the top count, later in program order, releases all of them (causality is transitive); the same
// argument one level up makes the add that completes the top count synchronize with every group,
// and its release store of the epoch, read by a leader's acquire load, carries all of it to that
// leader; bar.sync after the wait carries it to the block's threads.
//
// What the caller must do: GridBarrier's rules; its words are the top count at words[0], the flag
// at words[kFlagWord] and group g's count at words[(2 + g) x kLineWords], on a zeroed allocation
// of tree_grid_barrier_words(blocks, Group) 64-bit words.

#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include "gpubarrier/watchdog.cuh"
#include "grid/detail/block_leader.cuh"
#include "grid/detail/flag_design.cuh"

namespace gb::grid {

// The 64-bit words a grid of `blocks` blocks needs with groups of `group` blocks.
__host__ __device__ constexpr unsigned long long tree_grid_barrier_words(unsigned long long blocks,
                                                                         unsigned group) {
  return (2 + (blocks + group - 1) / group) * kLineWords;
}

template <class W, unsigned Group>
class TreeDesign {
  static_assert(Group >= 2, "a group of one block is the flat count");

 public:
  using Word = unsigned long long;

  __device__ TreeDesign(Word* words, const W& watchdog)
      : top_(words), flag_(words + kFlagWord), watchdog_(watchdog) {
    const Word blocks = Word(gridDim.x) * gridDim.y * gridDim.z;
    const Word me = blockIdx.x + Word(gridDim.x) * (blockIdx.y + Word(gridDim.y) * blockIdx.z);
    const Word group = me / Group;
    groups_ = (blocks + Group - 1) / Group;
    members_ = blocks - group * Group < Group ? blocks - group * Group : Group;
    group_count_ = words + (2 + group) * kLineWords;
    if (block_leader()) epoch_ = Ref(*flag_).load(cuda::memory_order_relaxed);
  }

  // Every thread of the block; false in every thread when the watchdog gave up.
  __device__ bool sync() {
    return block_sync([&] { return arrive_and_wait(); });
  }

 private:
  using Ref = cuda::atomic_ref<Word, cuda::thread_scope_device>;

  __device__ bool arrive_and_wait() {
    const Word epoch = ++epoch_;
    const bool last =
        Ref(*group_count_).fetch_add(1, cuda::memory_order_acq_rel) + 1 == epoch * members_ &&
        Ref(*top_).fetch_add(1, cuda::memory_order_acq_rel) + 1 == epoch * groups_;
    return release_or_wait<false>(last, Ref(*flag_), epoch, watchdog_);
  }

  Word* top_;
  Word* flag_;
  Word* group_count_ = nullptr;
  W watchdog_;
  Word groups_ = 0, members_ = 0;
  Word epoch_ = 0;  // the leader's: the barriers this grid completed
};

}  // namespace gb::grid
