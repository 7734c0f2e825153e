// gpu.grid.cg: cooperative launch + cg::this_grid().sync(), differential technique (the study's
// sections 5.3 and 9.4; the heat map of the study's workshop version (Zhang, Wahib, Zhang,
// Matsuoka), Fig. 8 over blocks/SM x threads/block). grid.sync() spins inside CUDA where no
// watchdog reaches: it only runs with the whole grid.
#include "grid/detail/cg_policy.cuh"

namespace gb::grid {
namespace {

struct GridSync {
  __device__ void operator()(cooperative_groups::grid_group& grid) const { grid.sync(); }
};

struct CgSync : CgGridPolicy<GridSync> {
  static inline const MethodInfo info{
      .name = "gpu.grid.cg",
      .description = "cg::this_grid().sync() in a cooperative launch (differential technique)"};
};

}  // namespace
}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CgSync>)
