// reduction.single.two-kernel: the kernel boundary as the barrier (the study's Fig. 14, the
// study's "implicit"): one kernel leaves a partial sum per block, a second one-block kernel sums
// them. Both over the resident grid of 1024-thread blocks, as reduction.single.grid-sync.
#include "core/registry.hpp"
#include "reduction/detail/reduction_method.cuh"

namespace gb::reduction {
namespace {

__global__ void partials_kernel(const double* data, std::uint64_t n, double* partials) {
  block_partial(data, n, partials);
}

__global__ void total_kernel(const double* partials, std::uint64_t n, double* out) {
  block_total(partials, n, out);
}

struct Partials {
  Partials() : blocks(resident_blocks(partials_kernel, kThreads)), sums(blocks) {}
  int blocks;
  DeviceBuffer<double> sums;
};

class TwoKernel final : public SingleReduction {
 public:
  TwoKernel()
      : SingleReduction(
            {.name = "reduction.single.two-kernel",
             .level = Level::kernel,
             .description = "sum of a double array: partial sums per block, kernel boundary, one "
                            "block sums them (event technique; the study's Fig. 14)",
             .axes = single_axes()}) {}

 protected:
  void run(State& state, Input& in) override {
    Partials& p = state.resource<Partials>();
    partials_kernel<<<p.blocks, kThreads>>>(in.data.get(), in.n, p.sums.get());
    total_kernel<<<1, kThreads>>>(p.sums.get(), p.blocks, in.out.get());
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::TwoKernel)
