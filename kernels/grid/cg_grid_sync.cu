// gpu.grid.cg: cooperative launch + cg::this_grid().sync(), differential technique (seed 001
// sections 5.3 and 9.4; the heat map of seed 002 Fig. 8 over blocks/SM x threads/block).
// grid.sync() spins inside CUDA where no watchdog reaches: it only runs with the whole grid.
#include <cooperative_groups.h>

#include "grid/grid_barrier.cuh"

namespace cg = cooperative_groups;

namespace gb::grid {
namespace {

struct CgSync {
  static constexpr std::string_view kName = "gpu.grid.cg";
  static constexpr std::string_view kDescription =
      "cg::this_grid().sync() in a cooperative launch (differential technique)";
  static constexpr bool kInterruptible = false;
  static std::size_t state_words(int) { return 0; }

  class Block {
   public:
    __device__ Block(unsigned*, const WatchdogArgs&) : grid_(cg::this_grid()) {}
    __device__ bool sync() {
      grid_.sync();
      return true;
    }

   private:
    cg::grid_group grid_;
  };
};

}  // namespace
}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CgSync>)
