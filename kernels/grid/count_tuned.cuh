// Tunings of the library's flat count (include/gpubarrier/grid_barrier.cuh, its contract and
// reasoning there), each a template argument of the public BasicGridBarrier, in the grid frame:
// gpu.grid.count-release (the leader's add is release-only, without the acquire half that
// invalidates the SM's L1 after it),
// gpu.grid.count-pause-32 and -128 (a failed poll sleeps about 32 or 128 ns before the next),
// gpu.grid.count-release-pause-32 (both). They measure the two levers of the one-word design
// (the arrival's round trip, the polls' contention with the arrivals) so that the library's
// default can be the tuning that is fastest at each shape.
#pragma once

#include "grid/count_epoch.cuh"
#include "grid/detail/grid_barrier.cuh"
