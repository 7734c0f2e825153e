// kernel.fusion.omp-barrier: the overhead of the CPU-side implicit barrier by Eq. 6 (the study
// (Zhang, Wahib, Zhang, Matsuoka), section 4.2.2, Figs. 4-5, measured "with the same method used
// for a single GPU", section 9.2). One OpenMP thread per GPU runs steps of the study's Fig. 4: a
// kernel of __nanosleep units, a wait for the GPU's stream, `#pragma omp barrier`. fusion_i steps
// of kernels of fusion_j units against fusion_j steps of fusion_i units do the same GPU work, so
//   O = (L_ij - L_ji) / (i - j)
// is what one step costs beyond its kernel's execution: the launch, the stream wait's return and
// the OpenMP barrier, which no running kernel hides (every step waits for its kernel). On one GPU
// the barrier has one thread and the figure is the launch and stream wait alone; from two GPUs on
// it is the study's CPU-side barrier overhead (its Fig. 5). Unlike host.omp.gpu-barrier, whose
// step time holds the empty kernel's execution as well, nothing of a kernel's run is in it.
// The shortest kernel Eq. 6 accepts is core/fusion.hpp's (the study: about 5 us on one GPU).
#include <chrono>
#include <string>

#include "core/cuda_check.hpp"
#include "core/fusion.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "runtime/gpu_host_barrier.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

__global__ void omp_fusion_units(long units, unsigned unit_ns) {
  for (long u = 0; u < units; ++u) __nanosleep(unit_ns);
}

class OmpBarrierFusion final : public mg::ThreadsTeamMethod {
 public:
  OmpBarrierFusion()
      : mg::ThreadsTeamMethod(
            {.name = "kernel.fusion.omp-barrier",
             .level = Level::kernel,
             .description = "overhead of a CPU-side barrier step (launch, stream wait, omp "
                            "barrier; one OpenMP thread per GPU) beyond its kernel of __nanosleep "
                            "units (fusion technique, the study's Eq. 6, section 4.2.2); one GPU: "
                            "the launch and stream wait alone; gpu_count 0 = all given",
             .axes = {{kGpuCountAxis, {0}},
                      mg::host_wait_axis({0}),
                      {"blocks_per_sm", {1}},
                      {"threads_per_block", {128}},
                      {"fusion_i", {100}},
                      {"fusion_j", {10}},
                      {"unit_ns", {1000}}}}) {}
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    return fusion_point_usable(p);
  }

  Verification verify(State& state) override { return mg::verify_gpu_host_barrier(state, &wait); }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const mg::Team& team = mg::team_of(state);
    const auto unit = static_cast<unsigned>(p.at("unit_ns"));
    const auto per_sm = static_cast<unsigned>(p.at("blocks_per_sm"));
    const dim3 block(static_cast<unsigned>(p.at("threads_per_block")));
    std::vector<dim3> grids;
    for (int l = 0; l < team.local_count(); ++l) {
      int sms = 0;
      GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(l)));
      grids.emplace_back(per_sm * static_cast<unsigned>(sms));
    }
    // One parallel region per run: its fork and join are the same in both runs of a pair and
    // cancel in Eq. 6.
    auto run = [&](long steps, long units) {
      const auto t0 = std::chrono::steady_clock::now();
      team.parallel([&](int l) {
        for (long s = 0; s < steps; ++s) {
          team.guard(l, [&] {
            omp_fusion_units<<<grids[l], block, 0, team.stream(l)>>>(units, unit);
            GB_CUDA_CHECK(cudaGetLastError());
          });
          wait(team, l);
        }
      });
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    Measurement m = fusion(ctx, run, p.at("fusion_i"), p.at("fusion_j"));
    m.note = std::to_string(m.reps_hi) + " steps x " + std::to_string(m.reps_lo) +
             " units against the converse, " + std::to_string(unit) + " ns units, " +
             std::to_string(team.size()) +
             (team.size() == 1 ? " GPU (launch and stream wait; an omp barrier of one thread)"
                               : " GPUs (launch, stream wait and omp barrier)");
    return {m};
  }

 private:
  // The step's wait (the study's Fig. 4): the member's stream, then the other members. A failed
  // member still meets the others at the barrier (Team::guard), so that none waits for ever.
  static void wait(const mg::Team& team, int l) {
    team.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l))); });
    team.thread_barrier();
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::OmpBarrierFusion)
