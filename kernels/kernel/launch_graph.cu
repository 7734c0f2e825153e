// kernel.launch.graph: a CUDA graph captured from <<<>>> launches (a CUDA 10+ path the study could
// not measure).
// The frame, its figures and its check: detail/kernel_launch.cuh.
#include "kernel/detail/kernel_launch.cuh"

namespace gb::kernel_detail {

struct Graph {
  static inline const MethodInfo info{
      .name = "kernel.launch.graph",
      .description = "CUDA graph of empty <<<>>> kernels: launch+sync latency, launch interval"};
  static constexpr bool captured = true;
  template <class... Args>
  static void launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
    chevron_launch(s, stream, kernel, args...);
  }
  static Usability fits(const RunContext&, long, int) { return Usability::yes(); }
};

}  // namespace gb::kernel_detail

GB_REGISTER_METHOD(gb::kernel_detail::KernelLaunch<gb::kernel_detail::Graph>)
