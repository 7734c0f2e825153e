// gpu.grid.cluster-count-epoch: blocks meet in their thread-block cluster, one block per cluster
// on the count that only grows (grid/cluster_count_epoch.cuh), in the grid-barrier frame.
#include "grid/cluster_count_epoch.cuh"
#include "grid/detail/grid_barrier.cuh"

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::ClusterCountEpoch>)
