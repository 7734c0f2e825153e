// host.omp.gpu-barrier: one OpenMP thread per GPU launches an empty kernel, waits for its stream
// and meets the others at `#pragma omp barrier` (the study (Zhang, Wahib, Zhang, Matsuoka), section
// 4.2.2, Fig. 4). The figure of a step is the slowest thread's; OMP_WAIT_POLICY (spinning or
// sleeping threads) is recorded. The first row, loop_latency, is the loop mean of the slowest
// thread, as EPCC syncbench times an OpenMP barrier (core/host_loop_reference.hpp).
#include <cstdlib>

#include "core/cuda_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "runtime/gpu_host_barrier.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

class OmpGpuBarrier final : public mg::ThreadsTeamMethod {
 public:
  OmpGpuBarrier()
      : mg::ThreadsTeamMethod(
            {.name = "host.omp.gpu-barrier",
             .level = Level::multi_gpu,
             .description = "empty kernel + stream sync + omp barrier, one thread per GPU (threads "
                            "mode, host-loop, max over threads); gpu_count 0 = all given",
             .axes = team_axes()}) {}

  Verification verify(State& state) override { return mg::verify_gpu_host_barrier(state, &wait); }
  std::vector<Measurement> measure(State& state) override {
    std::vector<Measurement> rows = mg::measure_gpu_host_barrier(state, epcc_convention(), &wait);
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    const std::string note = std::string("OMP_WAIT_POLICY=") + (policy ? policy : "unset");
    rows[0].note += "; " + note;  // loop_latency
    rows[1].note = note;          // latency
    return rows;
  }

 private:
  // Runs inside the team's parallel region: the barrier binds to it. A failed member still
  // meets the others there (Team::guard), so that none of them waits for it forever.
  static void wait(const mg::Team& team, int l) {
    team.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l))); });
#pragma omp barrier
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::OmpGpuBarrier)
