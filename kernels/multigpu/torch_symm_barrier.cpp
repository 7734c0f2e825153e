// multigpu.torch.symm-barrier: PyTorch's symmetric-memory barrier
// (torch.distributed._symmetric_memory: symm_mem.empty + rendezvous, then the handle's
// barrier(channel=...), one kernel of one block per GPU and barrier that signals every peer's
// signal pad and waits for every peer's signal), as ML-systems code calls it. PyTorch is Python,
// so the barrier runs in gpubarrier_tools/peers/torch_symm_barrier.py, one process per GPU, R_lo
// and R_hi calls captured into a CUDA graph each so that a replay times the barriers and not
// Python's launches; this method runs the script as a child process under host-side deadlines
// (multigpu/torch_symm_script.hpp) and makes the figures with gpubarrier's differential technique
// from its replay times, as for every device barrier. Compare with the device barriers' launch=1
// rows (one block per GPU, one launch per barrier in a CUDA graph), the same shape, and their
// launch=0 rows (one persistent kernel of the whole GPU). Multicast stays off
// (TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NCCL_NVLS_ENABLE=0, NVSHMEM_DISABLE_NVLS=1, set by the
// script). Without torch, CUDA or symmetric memory the rows are skipped with the script's reason.
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "core/watchdog.hpp"
#include "multigpu/torch_symm_script.hpp"
#include "runtime/peer_memory.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

constexpr long kCheckCrossings = 64;  // as the device barriers' check

class TorchSymmBarrier final : public mg::ThreadsTeamMethod {
 public:
  TorchSymmBarrier()
      : mg::ThreadsTeamMethod(
            {.name = "multigpu.torch.symm-barrier",
             .level = Level::multi_gpu,
             .description =
                 "PyTorch's symmetric-memory barrier (torch.distributed._symmetric_memory: "
                 "symm_mem.empty + rendezvous, handle.barrier(channel)): one kernel of one block "
                 "per GPU and barrier, R barrier() calls captured into a CUDA graph and replayed "
                 "by gpubarrier_tools/peers/torch_symm_barrier.py (one process per GPU, NCCL "
                 "process group, multicast off), differential; checked by stamps read after each "
                 "barrier with one GPU late in turn. Needs a python3 with torch "
                 "(GPUBARRIER_TORCH_PYTHON picks one). gpu_count 0 = all given (2 or more); "
                 "channel: the signal pad's channel",
             .axes = {{kGpuCountAxis, {0}}, {"channel", {0}}}}) {}
  Requirements requirements() const override {
    Requirements r = ThreadsTeamMethod::requirements();
    r.min_gpus = 2;
    r.peer_access = true;
    return r;
  }
  // The script's own reason where torch cannot run it, beside the method's (no GPU, mpirun).
  Usability usable(const RunContext& ctx) const override {
    const Usability base = ThreadsTeamMethod::usable(ctx);
    if (ctx.launch.under_mpi) return base;  // the script spawns its own process per GPU
    const std::string torch = torch_peer::torch_problem();
    if (torch.empty()) return base;
    return Usability::no(base.ok ? torch : base.reason + "; and " + torch);
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    if (point_gpus(ctx, p).size() < 2)
      return Usability::no("PyTorch's barrier needs 2 or more GPUs");
    if (p.at("channel") < 0) return Usability::no("channel: 0 or more");
    if (std::string why = mg::peer_access_problem(point_gpus(ctx, p)); !why.empty())
      return Usability::no(why);
    return Usability::yes();
  }

  Verification verify(State& state) override {
    try {
      torch_peer::Session* s = session(state);
      if (!s) return {};
      const long stale = s->check(kCheckCrossings);
      if (stale == 0) return Verification::passed();
      return Verification::failed(std::to_string(stale) +
                                  " stale stamps seen after the barrier in " +
                                  std::to_string(kCheckCrossings) + " crossings");
    } catch (const torch_peer::ScriptSkip& e) {
      state.skip(e.what());
      return {};
    } catch (const legacy::HelperTimeout& e) {
      return Verification::timed_out(e.what());
    }
  }

  std::vector<Measurement> measure(State& state) override {
    try {
      torch_peer::Session* s = session(state);
      if (!s) return {};
      Measurement m = differential(state.ctx(), [&](long reps) { return s->time(reps); });
      m.note = "CUDA graph of R barrier() calls, one kernel per barrier (1 block per GPU); " +
               std::to_string(point_gpus(state.ctx(), state.point()).size()) + " GPUs; " +
               s->about();
      return {m};
    } catch (const torch_peer::ScriptSkip& e) {
      state.skip(e.what());
      return {};
    } catch (const legacy::HelperTimeout& e) {
      return {timeout_measurement(Metric::latency, "ns", Technique::differential, e.what())};
    }
  }

 private:
  // The first gpu_count given GPUs (all for 0).
  static std::vector<int> point_gpus(const RunContext& ctx, const Point& p) {
    const auto n = static_cast<std::size_t>(p.get(kGpuCountAxis, 0));
    return {
        ctx.gpus.begin(),
        ctx.gpus.begin() + static_cast<long>(n > 0 && n < ctx.gpus.size() ? n : ctx.gpus.size())};
  }
  // The point's script, started on first use; null (and the point skipped) where it cannot run.
  static torch_peer::Session* session(State& state) {
    if (state.skipped()) return nullptr;
    const torch_peer::ScriptCommand command = torch_peer::locate_script();
    if (!command.problem.empty()) {
      state.skip(command.problem);
      return nullptr;
    }
    const RunContext& ctx = state.ctx();
    return &state.resource<torch_peer::Session>(command, point_gpus(ctx, state.point()),
                                                state.point().at("channel"), ctx.options.reps_lo,
                                                ctx.options.reps_hi, ctx.options.watchdog_s);
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::TorchSymmBarrier)
