// kernel.multi-device-launch: the implicit barrier of launching a cooperative kernel on every GPU
// from one host thread and waiting for all of them (the study (Zhang, Wahib, Zhang, Matsuoka),
// section 4.2.1). Axis `impl`: 0 (emulated, first, so that earlier CSVs keep their meaning): CUDA
// 13 removed cudaLaunchCooperativeKernelMultiDevice, so one cudaLaunchCooperativeKernel per GPU
// stands in; 1 (real): that API, run by the gpubarrier-legacy helper built with CUDA 11.x/12.x
// (src/methods/legacy/figures.hpp), skipped with the reason where the helper is absent. The row's
// note says which ran.
#include <cuda_runtime.h>

#include "core/cuda_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "methods/legacy/figures.hpp"
#include "methods/legacy/locate.hpp"
#include "runtime/host_steps.hpp"
#include "runtime/host_verify.hpp"
#include "runtime/team.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

enum class Impl { emulated = 0, real = 1 };

class MultiDeviceLaunch final : public mg::ThreadsTeamMethod {
 public:
  MultiDeviceLaunch()
      : mg::ThreadsTeamMethod(
            {.name = "kernel.multi-device-launch",
             .level = Level::kernel,
             .description = "cooperative launch of an empty kernel (1 block/SM) on every GPU, then "
                            "wait for all (threads mode, host-loop); gpu_count 0 = all given; "
                            "impl=real needs the gpubarrier-legacy helper",
             .axes = method_axes()}) {}
  static std::vector<Axis> method_axes() {
    std::vector<Axis> axes = team_axes();
    axes.push_back(
        {"impl",
         {0, 1},
         {{Impl::emulated, "emulated",
           "one cudaLaunchCooperativeKernel per GPU stands in for the removed multi-device launch"},
          {Impl::real, "real",
           "cudaLaunchCooperativeKernelMultiDevice, run by the helper built with an older CUDA"}}});
    return axes;
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = ThreadsTeamMethod::feasible(ctx, p); !u.ok) return u;
    return real(p) ? legacy::usable(ctx, Usability::yes()) : Usability::yes();
  }

  Verification verify(State& state) override {
    if (real(state)) return legacy::verify_real_launch(state, helper_shape(state));
    RunContext& ctx = state.ctx();
    const mg::Team& team = mg::team_of(state);
    return mg::verify_launch_barrier(ctx, team, [&] { wait_all(team); });
  }

  std::vector<Measurement> measure(State& state) override {
    if (real(state)) return legacy::measure_real_launch(state, helper_shape(state));
    RunContext& ctx = state.ctx();
    const mg::Team& team = mg::team_of(state);
    const std::vector<int> blocks = blocks_per_gpu(team);
    Measurement m = host_loop(ctx, [&] {
      launch_all(team, blocks);
      wait_all(team);
    });
#if CUDART_VERSION < 13000
    m.note = "cudaLaunchCooperativeKernelMultiDevice";
#else
    m.note =
        "emulated: one cudaLaunchCooperativeKernel per GPU (CUDA 13 removed "
        "cudaLaunchCooperativeKernelMultiDevice)";
#endif
    return {m};
  }

 private:
  static bool real(const Point& p) {
    return p.choice<Impl>("impl") == Impl::real;
  }
  static bool real(const State& state) {
    return real(state.point());
  }
  static legacy::Shape helper_shape(const State& state) {
    legacy::Shape s;  // the helper's launch steps are 1 block/SM x 128 threads, as below
    s.host_wait = state.point().get(mg::kHostWaitAxis, 0);
    return s;
  }

  static std::vector<int> blocks_per_gpu(const mg::Team& team) {
    std::vector<int> blocks;
    for (int l = 0; l < team.local_count(); ++l) {
      int sms = 0;
      GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(l)));
      blocks.push_back(sms);
    }
    return blocks;
  }

  static void launch_all(const mg::Team& team, const std::vector<int>& blocks) {
#if CUDART_VERSION < 13000
    std::vector<cudaLaunchParams> params(team.local_count());
    for (int l = 0; l < team.local_count(); ++l)
      params[l] = {const_cast<void*>(mg::empty_kernel()),
                   dim3(blocks[l]),
                   dim3(128),
                   nullptr,
                   0,
                   team.stream(l)};
    GB_CUDA_CHECK(cudaLaunchCooperativeKernelMultiDevice(params.data(), team.local_count(), 0));
#else
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      GB_CUDA_CHECK(cudaLaunchCooperativeKernel(mg::empty_kernel(), blocks[l], 128, nullptr, 0,
                                                team.stream(l)));
    }
#endif
  }

  static void wait_all(const mg::Team& team) {
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l)));
    }
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::MultiDeviceLaunch)
