// host.mpi.barrier: MPI_Barrier among all ranks, no GPU (like osu_barrier); each step's figure
// is the slowest rank's.
#include "core/mpi_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"

namespace gb {
namespace {

class MpiBarrier final : public Method {
 public:
  std::string_view name() const override { return "host.mpi.barrier"; }
  Level level() const override { return Level::host; }
  std::string_view description() const override {
    return "MPI_Barrier among all ranks (host-loop, max over ranks per step)";
  }
  Requirements requirements() const override {
    Requirements r;
    r.mpi_launch = true;
    return r;
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
#ifdef GPUBARRIER_HAVE_MPI
    return {host_loop(ctx, [] { GB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); })};
#else
    (void)ctx;
    return {};
#endif
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::MpiBarrier)
