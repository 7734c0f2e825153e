// The two-level arrival of a flag design (grid/detail/flag_design.cuh): the blocks meet in groups
// of Group consecutive blocks first. Each block's leader adds 1 to its group's count (a line of
// its own); the leader whose add completes its group's count adds 1 to the top count; the leader
// whose add completes the top count completes the barrier. The top count sees one add per group
// instead of one per block, and the adds of different groups go to different lines, so they do
// not queue behind each other; the price is one more atomic round trip on the last group's path.
//
// Why it holds under the PTX memory model: the group's adds (acq_rel) form a release sequence, so
// the add that completes it, an acquire, synchronizes with every block of the group, and its own
// acq_rel add to the top count, later in program order, releases all of them (causality is
// transitive); the same argument one level up makes the add that completes the top count
// synchronize with every group. The rest is the flag design's.
//
// Words: the top count at words[0] (the flag at words[kFlagWord]) and group g's count at
// words[(2 + g) x kLineWords]: tree_grid_barrier_words(blocks, Group) 64-bit words, zeroed.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include "grid/detail/flag_design.cuh"

namespace gb::grid {

// The 64-bit words a grid of `blocks` blocks needs with groups of `group` blocks.
__host__ __device__ constexpr unsigned long long tree_grid_barrier_words(unsigned long long blocks,
                                                                         unsigned group) {
  return (2 + (blocks + group - 1) / group) * kLineWords;
}

template <unsigned Group>
struct GroupCounts {
  static_assert(Group >= 2, "a group of one block is the flat count");

  __device__ explicit GroupCounts(FlagWord* words) : top_(words) {
    const FlagWord blocks = FlagWord(gridDim.x) * gridDim.y * gridDim.z;
    const FlagWord me =
        blockIdx.x + FlagWord(gridDim.x) * (blockIdx.y + FlagWord(gridDim.y) * blockIdx.z);
    const FlagWord group = me / Group;
    groups_ = (blocks + Group - 1) / Group;
    members_ = blocks - group * Group < Group ? blocks - group * Group : Group;
    group_count_ = words + (2 + group) * kLineWords;
  }

  // This block's arrival at barrier `epoch`; true when it completed the barrier.
  __device__ bool completes(FlagWord epoch) {
    return FlagRef(*group_count_).fetch_add(1, cuda::memory_order_acq_rel) + 1 ==
               epoch * members_ &&
           FlagRef(*top_).fetch_add(1, cuda::memory_order_acq_rel) + 1 == epoch * groups_;
  }

 private:
  FlagWord* top_;
  FlagWord* group_count_;
  FlagWord groups_, members_;
};

}  // namespace gb::grid
