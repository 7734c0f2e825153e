// kernel.launch.cooperative: cudaLaunchCooperativeKernel, which refuses a grid whose blocks cannot
// all be resident at once.
// The frame, its figures and its check: detail/kernel_launch.cuh.
#include "kernel/detail/kernel_launch.cuh"

namespace gb::kernel_detail {

struct Cooperative {
  static inline const MethodInfo info{
      .name = "kernel.launch.cooperative",
      .description = "empty cudaLaunchCooperativeKernel: launch+sync latency, launch interval"};
  static constexpr bool captured = false;
  template <class... Args>
  static void launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
    void* params[] = {&args..., nullptr};
    GB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), s.grid,
                                              s.block, params, 0, stream));
  }
  static Usability fits(const RunContext& ctx, long per_sm, int threads) {
    return cooperative_fit(ctx, per_sm, threads);
  }
};

}  // namespace gb::kernel_detail

GB_REGISTER_METHOD(gb::kernel_detail::KernelLaunch<gb::kernel_detail::Cooperative>)
