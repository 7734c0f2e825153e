// kernel.fusion.multi-device: the launch overhead of cudaLaunchCooperativeKernelMultiDevice that
// stays hidden while kernels run back to back (the study (Zhang, Wahib, Zhang, Matsuoka), section
// 9.2, Eq. 6; its Table 1 has it beside the traditional and cooperative launches): fusion_i
// multi-device launches of kernels of fusion_j __nanosleep units against fusion_j launches of
// fusion_i units, on every GPU given. CUDA 13 removed the launch API, so the gpubarrier-legacy
// helper (CUDA 11.x/12.x) launches and times; the technique is gpubarrier's (core/fusion.hpp).
// Default flags: each launch waits for earlier work on every GPU's stream, as the API does unless
// told otherwise. Every kernel must outlast the host's time to issue the next launch, which grows
// with the GPU count: hence longer units than kernel.fusion's.
#include "core/fusion.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "methods/legacy/figures.hpp"
#include "methods/legacy/locate.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

class MultiDeviceFusion final : public mg::ThreadsTeamMethod {
 public:
  MultiDeviceFusion()
      : mg::ThreadsTeamMethod(
            {.name = "kernel.fusion.multi-device",
             .level = Level::kernel,
             .description = "launch overhead hidden behind running kernels, "
                            "cudaLaunchCooperativeKernelMultiDevice of __nanosleep units on every "
                            "GPU (fusion technique, the study's Eq. 6), run by the "
                            "gpubarrier-legacy helper; gpu_count 0 = all given",
             .axes = {{kGpuCountAxis, {0}},
                      {"blocks_per_sm", {1}},
                      {"threads_per_block", {128}},
                      {"fusion_i", {100}},
                      {"fusion_j", {10}},
                      {"unit_ns", {5000}}}}) {}
  Usability usable(const RunContext& ctx) const override {
    return legacy::usable(ctx, ThreadsTeamMethod::usable(ctx));
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    return fusion_point_usable(p);
  }

  std::vector<Measurement> measure(State& state) override {
    const Point& p = state.point();
    legacy::Shape s;
    s.blocks_per_sm = p.at("blocks_per_sm");
    s.threads = p.at("threads_per_block");
    s.unit_ns = p.at("unit_ns");
    return legacy::measure_multi_device_fusion(state, s, p.at("fusion_i"), p.at("fusion_j"));
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::MultiDeviceFusion)
