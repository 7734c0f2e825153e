// gpu.grid.cluster-count-epoch: the cluster-first grid barrier that users include
// (include/gpubarrier/cluster_grid_barrier.cuh, its contract and its reasoning under the PTX
// memory model there), in the grid-barrier frame: the blocks of each thread-block cluster meet on
// the cluster's hardware barrier first, and one block per cluster adds to the 64-bit count that
// only grows, where gpu.grid.count-epoch's blocks all add, so the count sees a cluster_size-th of
// the adds; every block polls it. The frame
// launches it in clusters (the cluster_size axis) and checks it with the same stamps as every
// grid barrier. Every spin loop carries the frame's watchdog, whose budget and flag are the public
// barrier's.
#pragma once

#include <cstddef>
#include <string_view>

#include "gpubarrier/cluster_grid_barrier.cuh"
#include "grid/detail/public_block.cuh"
#include "grid/detail/traits.hpp"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

struct ClusterCountEpoch : ZeroState {
  static inline const MethodInfo info{
      .name = "gpu.grid.cluster-count-epoch",
      .description =
          "software grid barrier, cluster first: the blocks of each thread-block cluster meet on "
          "its hardware barrier, one block per cluster adds 1 to a 64-bit count that only grows, "
          "every block polls it until epoch x clusters (sm_90; differential technique)"};
  static constexpr Traits traits{.interruptible = true, .clustered = true};
  // The count: two 32-bit state words (the state is 256-byte aligned).
  static std::size_t state_words(int) { return 2; }

  using Block = PublicBlock<gpubarrier::BasicClusterGridBarrier>;
};

}  // namespace gb::grid
