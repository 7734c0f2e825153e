// host.mpi.barrier: MPI_Barrier among all ranks, no GPU. Two rows: loop_latency, osu_barrier's
// convention (each rank's loop mean, averaged over ranks; core/host_loop_reference.hpp), then
// latency, the per-step distribution (each step's figure the slowest rank's).
#include "core/host_loop_reference.hpp"
#include "core/oversubscription.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"

namespace gb {
namespace {

class MpiBarrier final : public Method {
 public:
  MpiBarrier()
      : Method({.name = "host.mpi.barrier",
                .level = Level::host,
                .description = "MPI_Barrier among all ranks (host-loop: loop mean averaged over "
                               "ranks as osu_barrier does; per step, max over ranks)"}) {}
  Requirements requirements() const override {
    Requirements r;
    r.mpi_launch = true;
    return r;
  }

  // Nothing on the host records when each rank arrived, so nothing shows that a rank left the
  // barrier only after the last one entered it.
  Verification verify(State&) override {
    return Verification::not_verified(
        "no check that MPI_Barrier held every rank until the last arrived (host-only, "
        "nothing stamps the ranks' arrival)");
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    // MPI_Barrier(MPI_COMM_WORLD), through the launch (the method runs only under mpirun/srun).
    const auto barrier = [&] { ctx.launch.barrier(); };
    // Every rank spins in MPI_Barrier: the ranks of a node need a CPU each, and need to have had
    // it while they were timed.
    std::string contention = oversubscription(ctx, 1, "ranks");
    const CpuShare cpu;
    std::vector<Measurement> rows{loop_latency(ctx, osu_convention(), barrier),
                                  host_loop(ctx, barrier)};
    add_reason(contention, cpu_wait(ctx, cpu.of(1), "ranks"));
    for (Measurement& m : rows) m.contention = contention;
    return rows;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::MpiBarrier)
