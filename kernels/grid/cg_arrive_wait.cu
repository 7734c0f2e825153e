// gpu.grid.cg-arrive-wait: the split grid barrier, cg::this_grid().barrier_arrive() then
// barrier_wait(token) (CUDA 12.x+), differential technique. Nothing runs between the two halves,
// so the figure is the cost of the split form itself, to set beside gpu.grid.cg; work placed
// there in real code overlaps the wait. Like grid.sync() it cannot be interrupted, so it only
// runs with the whole grid.
#include <utility>

#include "grid/detail/cg_policy.cuh"

namespace gb::grid {
namespace {

struct ArriveWait {
  __device__ void operator()(cooperative_groups::grid_group& grid) const {
    auto token = grid.barrier_arrive();
    grid.barrier_wait(std::move(token));
  }
};

struct CgArriveWait : CgGridPolicy<ArriveWait> {
  static inline const MethodInfo info{.name = "gpu.grid.cg-arrive-wait",
                                      .description =
                                          "cg::this_grid().barrier_arrive() + barrier_wait() in a "
                                          "cooperative launch (differential)"};
};

}  // namespace
}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CgArriveWait>)
