// reduction.copy: the ceiling of the reductions, a device-to-device cudaMemcpy of the same array
// in the same run. Its bandwidth counts bytes read plus bytes written (2 x bytes, as CUDA's
// bandwidthTest and STREAM's copy do): the DRAM traffic a read-only reduction can at best match.
#include "core/registry.hpp"
#include "reduction/detail/reduction_method.cuh"

namespace gb::reduction {
namespace {

struct Destination {
  explicit Destination(std::uint64_t n) : data(n) {}
  DeviceBuffer<double> data;
};

class Copy final : public SingleReduction {
 public:
  Copy()
      : SingleReduction(
            {.name = "reduction.copy",
             .level = Level::kernel,
             .description = "device-to-device cudaMemcpy of the reductions' array: their bandwidth "
                            "ceiling (bytes read + written; event technique)",
             .axes = single_axes()}) {}
  Verification verify(State&) override {
    return Verification::not_verified("a copy, the reductions' ceiling: no sum to check");
  }

 protected:
  int copies() const override { return 2; }
  double traffic() const override { return 2; }
  void run(State& state, Input& in) override {
    Destination& d = state.resource<Destination>(in.n);
    GB_CUDA_CHECK(cudaMemcpyAsync(d.data.get(), in.data.get(), in.n * sizeof(double),
                                  cudaMemcpyDeviceToDevice, 0));
  }
  std::string figure_note(State&, const Input&) const override {
    return "bandwidth counts bytes read + written";
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::Copy)
