// reduction.single.grid-sync: one cooperative kernel, grid.sync() as the barrier (the study's
// Fig. 13, single GPU): every block leaves its partial sum, the grid synchronises, block 0 sums
// the partials. Axis grid: 0 = one block (no other block to wait for), 1 = the resident grid;
// gpubarrier_tools/cli/model.py reads the crossing of the two as the measured "1 block vs the grid".
#include "common/grid_axis.hpp"
#include "core/registry.hpp"
#include "reduction/detail/reduction_method.cuh"
#include "reduction/grid_sum.cuh"

namespace gb::reduction {
namespace {

struct Partials {
  explicit Partials(int count) : blocks(count), sums(count) {}
  int blocks;
  DeviceBuffer<double> sums;
};

class GridSyncReduction final : public SingleReduction {
 public:
  GridSyncReduction()
      : SingleReduction(
            {.name = "reduction.single.grid-sync",
             .level = Level::grid,
             .description = "sum of a double array in one cooperative kernel: partial sums, "
                            "grid.sync(), block 0 sums them (event technique; the study's Fig. 13)",
             .axes = single_axes({grid_axis()})}) {}

 protected:
  void run(State& state, Input& in) override {
    Partials& p = state.resource<Partials>(
        full_grid(state.point()) ? resident_blocks(grid_sum_kernel<double>, kThreads) : 1);
    launch_grid_sum(in.data.get(), in.n, p.sums.get(), in.out.get(), p.blocks, kThreads, 0);
  }
  std::string figure_note(State& state, const Input& in) const override {
    return error_note(in.error) + "; " + std::to_string(state.resource<Partials>(1).blocks) +
           " blocks of " + std::to_string(kThreads) + " threads";
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::GridSyncReduction)
