// kernel.launch.ex: cudaLaunchKernelEx.
// The frame, its figures and its check: detail/kernel_launch.cuh.
#include "kernel/detail/kernel_launch.cuh"

namespace gb::kernel_detail {

struct Ex {
  static inline const MethodInfo info{
      .name = "kernel.launch.ex",
      .description = "empty cudaLaunchKernelEx: launch+sync latency, launch interval"};
  static constexpr bool captured = false;
  template <class... Args>
  static void launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = s.grid;
    config.blockDim = s.block;
    config.stream = stream;
    GB_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
  }
  static Usability fits(const RunContext&, long, int) { return Usability::yes(); }
};

}  // namespace gb::kernel_detail

GB_REGISTER_METHOD(gb::kernel_detail::KernelLaunch<gb::kernel_detail::Ex>)
