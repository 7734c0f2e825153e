// gpu.grid.flag-epoch: the per-block flag grid barrier counted in epochs
// (grid/flag_epoch.cuh, also used by pitfall.grid.partial-sync) in the grid-barrier frame.
#include "grid/detail/grid_barrier.cuh"
#include "grid/flag_epoch.cuh"

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::FlagEpoch>)
