// reduction.single.cub: cub::DeviceReduce::Sum from the toolkit's CCCL (the study (Zhang, Wahib,
// Zhang, Matsuoka), Table 6's "CUB"), its temporary storage allocated once per point, outside the
// timed span.
#include <cub/device/device_reduce.cuh>

#include "core/registry.hpp"
#include "reduction/detail/reduction_method.cuh"

namespace gb::reduction {
namespace {

struct CubStorage {
  explicit CubStorage(const Input& in) : bytes(query(in)), buffer(bytes) {}
  static std::size_t query(const Input& in) {
    std::size_t b = 0;
    GB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, b, in.data.get(), in.out.get(), in.n));
    return b;
  }
  std::size_t bytes;
  DeviceBuffer<unsigned char> buffer;
};

class CubReduction final : public SingleReduction {
 public:
  CubReduction()
      : SingleReduction(
            {.name = "reduction.single.cub",
             .level = Level::grid,
             .description =
                 "sum of a double array by cub::DeviceReduce::Sum (CCCL; event technique)",
             .axes = single_axes()}) {}

 protected:
  void run(State& state, Input& in) override {
    CubStorage& s = state.resource<CubStorage>(in);
    std::size_t bytes = s.bytes;
    GB_CUDA_CHECK(cub::DeviceReduce::Sum(s.buffer.get(), bytes, in.data.get(), in.out.get(), in.n));
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::CubReduction)
