// reduction.single.grid-sync: one cooperative kernel, grid.sync() as the barrier (seed 001
// Fig. 13, single GPU): every block leaves its partial sum, the grid synchronises, block 0 sums
// the partials. Axis grid: 0 = one block (no other block to wait for), 1 = the resident grid;
// tools/model.py reads the crossing of the two as the measured "1 block vs the grid".
#include <cooperative_groups.h>

#include "core/registry.hpp"
#include "reduction/detail/reduction_method.cuh"

namespace gb::reduction {
namespace {

__global__ void grid_sync_kernel(const double* data, std::uint64_t n, double* partials,
                                 double* out) {
  block_partial(data, n, partials);
  cooperative_groups::this_grid().sync();
  if (blockIdx.x == 0) block_total(partials, gridDim.x, out);
}

struct Partials {
  explicit Partials(int count) : blocks(count), sums(count) {}
  int blocks;
  DeviceBuffer<double> sums;
};

class GridSyncReduction final : public SingleReduction {
 public:
  std::string_view name() const override { return "reduction.single.grid-sync"; }
  Level level() const override { return Level::grid; }
  std::string_view description() const override {
    return "sum of a double array in one cooperative kernel: partial sums, grid.sync(), block 0 "
           "sums them; grid=0 one block, 1 the resident grid (event technique; seed 001 Fig. 13)";
  }

 protected:
  std::vector<Axis> extra_axes() const override { return {{"grid", {0, 1}}}; }
  void run(State& state, Input& in) override {
    const long grid = state.point().at("grid");
    Partials& p = state.resource<Partials>(grid ? resident_blocks(grid_sync_kernel, kThreads) : 1);
    const double* data = in.data.get();
    std::uint64_t n = in.n;
    double* sums = p.sums.get();
    double* out = in.out.get();
    void* args[] = {&data, &n, &sums, &out};
    GB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sync_kernel),
                                              p.blocks, kThreads, args, 0, 0));
  }
  std::string figure_note(State& state, const Input& in) const override {
    return error_note(in.error) + "; " + std::to_string(state.resource<Partials>(1).blocks) +
           " blocks of " + std::to_string(kThreads) + " threads";
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::GridSyncReduction)
