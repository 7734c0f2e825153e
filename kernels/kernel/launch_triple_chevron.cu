// kernel.launch.triple-chevron: kernel<<<>>>, the study's "traditional" launch.
// The frame, its figures and its check: detail/kernel_launch.cuh.
#include "kernel/detail/kernel_launch.cuh"

namespace gb::kernel_detail {

struct TripleChevron {
  static inline const MethodInfo info{
      .name = "kernel.launch.triple-chevron",
      .description = "empty kernel<<<>>>: launch+sync latency, launch interval"};
  static constexpr bool captured = false;
  template <class... Args>
  static void launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
    chevron_launch(s, stream, kernel, args...);
  }
  static Usability fits(const RunContext&, long, int) { return Usability::yes(); }
};

}  // namespace gb::kernel_detail

GB_REGISTER_METHOD(gb::kernel_detail::KernelLaunch<gb::kernel_detail::TripleChevron>)
