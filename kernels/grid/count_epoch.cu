// gpu.grid.count-epoch: one counter that only grows (grid/count_epoch.cuh) in the grid-barrier
// frame.
#include "grid/count_epoch.cuh"
#include "grid/detail/grid_barrier.cuh"

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CountEpoch>)
