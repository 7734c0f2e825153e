// host.mpi.gpu-barrier: one rank per GPU launches an empty kernel, waits for its stream and enters
// MPI_Barrier (the one-process-per-GPU form of the study (Zhang, Wahib, Zhang, Matsuoka), section
// 4.2.2). The figure of a step is the slowest rank's. The first row, loop_latency, is each rank's
// loop mean averaged over ranks, as osu_barrier reports (core/host_loop_reference.hpp).
#include "core/cuda_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "runtime/gpu_host_barrier.hpp"
#include "runtime/mpi_check.hpp"

namespace gb {
namespace {

class MpiGpuBarrier final : public Method {
 public:
  MpiGpuBarrier()
      : Method({.name = "host.mpi.gpu-barrier",
                .level = Level::multi_gpu,
                .description = "empty kernel + stream sync + MPI_Barrier, one rank per GPU (mpi "
                               "mode, host-loop, max over ranks)",
                .axes = {mg::host_wait_axis({0, 1, 2})}}) {}
  Requirements requirements() const override { return Requirements::rank_per_gpu(); }
  Usability usable(const RunContext& ctx) const override {
    // Without a GPU, mpirun would not help: say so first.
    if (ctx.visible_gpus == 0) return Usability::no("no CUDA GPU visible: " + ctx.no_gpu_reason);
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    return mg::team_usable(ctx, requirements());
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return mg::agree(ctx, mg::team_feasible(ctx, p));
  }

  Verification verify(State& state) override { return mg::verify_gpu_host_barrier(state, &wait); }
  std::vector<Measurement> measure(State& state) override {
    return mg::measure_gpu_host_barrier(state, osu_convention(), &wait);
  }

 private:
  // A failed rank still enters MPI_Barrier (Team::guard), so that none waits for it forever.
  static void wait(const mg::Team& team, int l) {
    team.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l))); });
#ifdef GPUBARRIER_HAVE_MPI
    GB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
#endif
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::MpiGpuBarrier)
