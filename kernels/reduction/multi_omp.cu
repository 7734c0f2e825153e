// reduction.multi.omp: the array spread over the GPUs (multi_reduction.cuh), one OpenMP thread
// per GPU (threads mode only): each GPU's share sum lands in GPU 0's memory, the threads meet at
// an OpenMP barrier (Team::thread_barrier), thread 0 sums the partials on GPU 0
// (detail/host_barrier_reduction.cuh). gpubarrier_tools/cli/model.py pairs it with host.omp.gpu-barrier.
#include <cstdlib>
#include <string>

#include "core/registry.hpp"
#include "reduction/detail/host_barrier_reduction.cuh"

namespace gb::reduction {
namespace {

struct OmpBarrier {
  // Binds to the team's parallel region (Team::parallel). Not a pragma here: nvcc compiles this
  // file without OpenMP and would drop it (the first GPU run summed before the other GPU's
  // partial had landed: relative error 0.52 on 2 GPUs).
  static void wait(const mg::Team& team, int) { team.thread_barrier(); }
  static std::string note() {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return std::string("omp barrier, OMP_WAIT_POLICY=") + (policy ? policy : "unset");
  }
};

class OmpReduction final : public MultiReduction<HostBarrierSession<OmpBarrier>> {
 public:
  OmpReduction()
      : MultiReduction<HostBarrierSession<OmpBarrier>>(
            {.name = "reduction.multi.omp",
             .level = Level::multi_gpu,
             .description = "sum of a double array spread over the GPUs (bytes = the whole array), "
                            "one OpenMP thread per GPU: share sum into GPU 0's memory, stream "
                            "sync, omp barrier, GPU 0 sums the partials (threads mode, host-loop; "
                            "the study's Fig. 14); gpu_count 0 = all given",
             .axes = multi_axes({})}) {}
  Requirements requirements() const override {
    Requirements r = Requirements::gpu_team(true, false);
    r.peer_access = true;
    return r;
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::OmpReduction)
