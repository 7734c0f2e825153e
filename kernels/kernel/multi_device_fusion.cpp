// kernel.fusion.multi-device: the launch overhead of cudaLaunchCooperativeKernelMultiDevice that
// stays hidden while kernels run back to back (seed 001 section 9.2, Eq. 6; its Table 1 has it
// beside the traditional and cooperative launches): fusion_i multi-device launches of kernels of
// fusion_j __nanosleep units against fusion_j launches of fusion_i units, on every GPU given.
// CUDA 13 removed the launch API, so the gpubarrier-legacy helper (CUDA 11.x/12.x) launches and
// times; the technique is gpubarrier's (core/fusion.hpp). Default flags: each launch waits for
// earlier work on every GPU's stream, as the API does unless told otherwise. Every kernel must
// outlast the host's time to issue the next launch, which grows with the GPU count: hence longer
// units than kernel.fusion's.
#include "core/registry.hpp"
#include "core/state.hpp"
#include "legacy/figures.hpp"
#include "legacy/locate.hpp"
#include "team/team.hpp"

namespace gb {
namespace {

class MultiDeviceFusion final : public Method {
 public:
  std::string_view name() const override { return "kernel.fusion.multi-device"; }
  Level level() const override { return Level::kernel; }
  std::string_view description() const override {
    return "launch overhead hidden behind running kernels, cudaLaunchCooperativeKernelMultiDevice "
           "of __nanosleep units on every GPU (fusion technique, seed 001 Eq. 6), run by the "
           "gpubarrier-legacy helper; gpu_count 0 = all given";
  }
  std::vector<Axis> axes() const override {
    return {{kGpuCountAxis, {0}}, {"blocks_per_sm", {1}}, {"threads_per_block", {128}},
            {"fusion_i", {100}},  {"fusion_j", {10}},     {"unit_ns", {5000}}};
  }
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.threads_mode = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = legacy::usable(ctx, Method::usable(ctx)); !u.ok) return u;
    return mg::team_usable(ctx, requirements());
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || p.at("blocks_per_sm") < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    const long i = p.at("fusion_i"), j = p.at("fusion_j"), unit = p.at("unit_ns");
    if (i < 1 || j < 1 || i == j) return Usability::no("needs fusion_i, fusion_j >= 1, i != j");
    // 1 ms is __nanosleep's upper limit per call.
    if (unit < 1 || unit > 1'000'000) return Usability::no("unit_ns must be within 1..1000000");
    return Usability::yes();
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
