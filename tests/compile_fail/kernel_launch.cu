// A kernel launch as a file under kernels/kernel/ holds it (kernels/kernel/launch_ex.cu), for
// test_compile_fail.py: as it stands it registers; each case below breaks it one way, and the
// LaunchKind concept (kernel/detail/kernel_launch.cuh) must refuse it.
// CASE misspelt_info: "CompileFailLaunch" "concept LaunchKind"
// CASE missing_captured: "CompileFailLaunch" "concept LaunchKind"
// CASE missing_fits: "CompileFailLaunch" "concept LaunchKind"
#include "kernel/detail/kernel_launch.cuh"

namespace gb::kernel_detail {

struct CompileFailLaunch {
#if defined(GB_CASE_MISSPELT_INFO)
  static inline const MethodInfo infos{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.kernel.compile-fail",
      .description = "<<<>>>, for a compile-time test"};
#if !defined(GB_CASE_MISSING_CAPTURED)
  static constexpr bool captured = false;
#endif
  template <class... Args>
  static void launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
    chevron_launch(s, stream, kernel, args...);
  }
#if !defined(GB_CASE_MISSING_FITS)
  static Usability fits(const RunContext&, long, int) { return Usability::yes(); }
#endif
};

}  // namespace gb::kernel_detail

GB_REGISTER_METHOD(gb::kernel_detail::KernelLaunch<gb::kernel_detail::CompileFailLaunch>)
