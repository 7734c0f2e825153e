// reduction.multi.mpi: the array spread over the GPUs (multi_reduction.cuh), one rank per GPU
// (mpi mode only): each GPU's share sum lands in GPU 0's memory over CUDA IPC, the ranks meet at
// MPI_Barrier, rank 0 sums the partials on GPU 0 (detail/host_barrier_reduction.cuh).
// gpubarrier_tools/cli/model.py pairs it with host.mpi.gpu-barrier.
#include <string>

#include "core/registry.hpp"
#include "reduction/detail/host_barrier_reduction.cuh"
#include "runtime/mpi_check.hpp"

namespace gb::reduction {
namespace {

struct MpiBarrier {
  // A failed rank still enters MPI_Barrier (its work is guarded), so that none waits forever.
  static void wait(const mg::Team&, int) {
#ifdef GPUBARRIER_HAVE_MPI
    GB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
#endif
  }
  static std::string note() {
    return "MPI_Barrier";
  }
};

class MpiReduction final : public MultiReduction<HostBarrierSession<MpiBarrier>> {
 public:
  MpiReduction()
      : MultiReduction<HostBarrierSession<MpiBarrier>>(
            {.name = "reduction.multi.mpi",
             .level = Level::multi_gpu,
             .description =
                 "sum of a double array spread over the GPUs (bytes = the whole array), one rank "
                 "per GPU: share sum into GPU 0's memory (CUDA IPC), stream sync, MPI_Barrier, "
                 "rank 0 sums the partials (mpi mode, host-loop, max over ranks; the study's Fig. "
                 "14); run under mpirun -np N (gpu_count 1 from -np 1)",
             .axes = multi_axes({})}) {}
  Requirements requirements() const override { return Requirements::rank_per_gpu(); }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::MpiReduction)
