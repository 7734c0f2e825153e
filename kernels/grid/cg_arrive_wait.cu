// gpu.grid.cg-arrive-wait: the split grid barrier, cg::this_grid().barrier_arrive() then
// barrier_wait(token) (CUDA 12.x+), differential technique. Nothing runs between the two halves,
// so the figure is the cost of the split form itself, to set beside gpu.grid.cg; work placed
// there in real code overlaps the wait. Like grid.sync() it cannot be interrupted, so it only
// runs with the whole grid.
#include <cooperative_groups.h>

#include <utility>

#include "grid/grid_barrier.cuh"

namespace cg = cooperative_groups;

namespace gb::grid {
namespace {

struct CgArriveWait {
  static constexpr std::string_view kName = "gpu.grid.cg-arrive-wait";
  static constexpr std::string_view kDescription =
      "cg::this_grid().barrier_arrive() + barrier_wait() in a cooperative launch (differential)";
  static constexpr bool kInterruptible = false;
  static std::size_t state_words(int) { return 0; }

  class Block {
   public:
    __device__ Block(unsigned*, const WatchdogArgs&) : grid_(cg::this_grid()) {}
    __device__ bool sync() {
      auto token = grid_.barrier_arrive();
      grid_.barrier_wait(std::move(token));
      return true;
    }

   private:
    cg::grid_group grid_;
  };
};

}  // namespace
}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CgArriveWait>)
