// kernel.fusion: the launch overhead that remains when kernels run back to back and the host
// launches ahead of the GPU (the study (Zhang, Wahib, Zhang, Matsuoka), sections 4.1 and 9.2, Eq.
// 6): fusion_i launches of kernels made of fusion_j __nanosleep units against fusion_j launches of
// fusion_i units. Every kernel must last longer than the host needs to launch the next (the study:
// about 5 us on one GPU), or the figure measures the host instead of the hidden overhead: a point
// whose shorter kernels, min(fusion_i, fusion_j) units, last less than kFusionMinKernelNs is
// refused (core/fusion.hpp). A figure whose 95% interval includes zero is written unresolved
// (core/resolution.hpp). The sleep duration of a unit is only approximate, but both series run the
// same number of units, so whatever a unit really lasts cancels.
// Axis launch: triple-chevron = <<<>>> (the study's "traditional"), cooperative =
// cudaLaunchCooperativeKernel (its "cooperative"; the study's Table 1); the third type, cooperative
// multi-device, is kernel.fusion.multi-device (the legacy helper).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/device_buffer.hpp"
#include "core/fusion.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"

namespace gb {
namespace {

enum class FusionLaunch { triple_chevron = 0, cooperative = 1 };

__global__ void sleep_units(long units, unsigned unit_ns) {
  for (long u = 0; u < units; ++u) __nanosleep(unit_ns);
}

class KernelFusion final : public Method {
 public:
  KernelFusion()
      : Method({.name = "kernel.fusion",
                .level = Level::kernel,
                .description = "launch overhead hidden behind running kernels of __nanosleep units "
                               "(fusion technique, the study's Eq. 6)",
                .axes = {{"blocks_per_sm", {1}},
                         {"threads_per_block", {128}},
                         {"fusion_i", {100}},
                         {"fusion_j", {10}},
                         {"unit_ns", {1000}},
                         {"launch",
                          {0},
                          {{FusionLaunch::triple_chevron, "triple-chevron",
                            "kernels launched with <<<>>>"},
                           {FusionLaunch::cooperative, "cooperative",
                            "kernels launched with cudaLaunchCooperativeKernel"}}}}}) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext&, const Point& p) const override {
    return fusion_point_usable(p);
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const int device = ctx.gpus.front();
    GB_CUDA_CHECK(cudaSetDevice(device));
    int sms = 0;
    GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const dim3 grid(static_cast<unsigned>(p.at("blocks_per_sm") * sms));
    const dim3 block(static_cast<unsigned>(p.at("threads_per_block")));
    const auto unit = static_cast<unsigned>(p.at("unit_ns"));
    const bool cooperative = p.choice<FusionLaunch>("launch") == FusionLaunch::cooperative;
    auto run = [&](long launches, long units) {
      void* args[] = {&units, const_cast<unsigned*>(&unit)};
      const auto t0 = std::chrono::steady_clock::now();
      for (long l = 0; l < launches; ++l) {
        if (cooperative) {
          GB_CUDA_CHECK(cudaLaunchCooperativeKernel(sleep_units, grid, block, args, 0, nullptr));
        } else {
          sleep_units<<<grid, block>>>(units, unit);
        }
      }
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    Measurement m = fusion(ctx, run, p.at("fusion_i"), p.at("fusion_j"));
    // Eq. 6 depends on how long the kernels that hide the launches run: the note names it.
    const long shorter = std::min(p.at("fusion_i"), p.at("fusion_j"));
    char length[48];
    std::snprintf(length, sizeof length, "%g us", static_cast<double>(shorter * unit) / 1e3);
    m.note = std::to_string(m.reps_hi) + " launches x " + std::to_string(m.reps_lo) +
             " units against the converse, " + std::to_string(unit) + " ns units, " +
             (cooperative ? "cudaLaunchCooperativeKernel" : "<<<>>>") + "; shorter kernels " +
             std::to_string(shorter) + " x " + std::to_string(unit) + " ns = " + length +
             " of nominal sleep";
    return {m};
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::KernelFusion)
