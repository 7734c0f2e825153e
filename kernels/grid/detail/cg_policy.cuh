// The frame of the two cooperative-groups grid barriers (grid.sync() and the split
// barrier_arrive()/barrier_wait()): no state of their own, and they spin inside CUDA where no
// watchdog reaches, so they only run with the whole grid. `Cross` crosses the barrier once.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>

#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

template <class Cross>
struct CgGridPolicy : ZeroState {
  static constexpr Traits traits{};
  static std::size_t state_words(int) { return 0; }

  class Block {
   public:
    __device__ Block(unsigned*, const WatchdogArgs&) : grid_(cooperative_groups::this_grid()) {}
    __device__ bool sync() {
      Cross{}(grid_);
      return true;
    }

   private:
    cooperative_groups::grid_group grid_;
  };
};

}  // namespace gb::grid
