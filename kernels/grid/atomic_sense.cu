// gpu.grid.atomic-sense: the atomic-counter grid barrier with sense reversal
// (grid/atomic_sense.cuh, also used by pitfall.grid.partial-sync) in the grid-barrier frame.
#include "grid/atomic_sense.cuh"
#include "grid/detail/grid_barrier.cuh"

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::AtomicSense>)
