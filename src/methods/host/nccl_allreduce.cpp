// host.nccl.allreduce: ncclAllReduce of one float as the barrier between GPUs (count 0 would be
// a no-op in NCCL). blocking=1 waits for the stream after every step, as PyTorch's barrier does
// (host-loop); blocking=0 enqueues the allreduces back to back in the stream (differential).
// Both first give nccl-tests' loop figure (core/host_loop_reference.hpp): each member times a
// loop of allreduces (blocking=0: enqueued back to back, then one stream wait inside the timed
// span, as nccl-tests by default; blocking=1: a stream wait after each, like `-z 1` without its
// host barrier between operations), divides by the count, and the members' figures are averaged
// (nccl-tests' default `-a 1`). blocking=1's figures are a barrier's (loop_latency, latency);
// blocking=0's are intervals between overlapping calls, each batch timed to the completion of its
// last (loop_interval, interval: core/back_to_back.hpp), which answer no barrier question.
#include <chrono>
#include <memory>

#include "core/back_to_back.hpp"
#include "core/cuda_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/teardown.hpp"
#include "core/techniques.hpp"
#include "core/unbuilt.hpp"
#include "runtime/host_verify.hpp"
#include "runtime/nccl_check.hpp"
#include "runtime/nccl_comm.hpp"
#include "runtime/team_host_loop.hpp"

namespace gb {
namespace {

enum class Blocking { back_to_back = 0, sync_each_step = 1 };

#ifdef GPUBARRIER_HAVE_NCCL
using NcclMethod = Method;
#else
using NcclMethod = Unbuilt<Method>;
#endif

class NcclAllReduce final : public NcclMethod {
 public:
  NcclAllReduce()
      : NcclMethod({.name = "host.nccl.allreduce",
                .level = Level::multi_gpu,
                .description =
                    "ncclAllReduce of 1 float as a barrier; blocking=back-to-back gives intervals "
                    "between calls, not a barrier's latency; gpu_count 0 = all given",
                .axes = {
                    {kGpuCountAxis, {0}},
                    {"blocking",
                     {1, 0},
                     {{Blocking::back_to_back, "back-to-back",
                       "the steps are enqueued back to back, then one stream wait (differential)"},
                      {Blocking::sync_each_step, "sync-each-step",
                       "a stream wait after every step (host loop)"}}},
                    mg::host_wait_axis({0})}}) {}
  Requirements requirements() const override {
    Requirements r = Requirements::gpu_team(true, true);
    r.nccl = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    return mg::team_usable(ctx, requirements());
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return mg::agree(ctx, mg::team_feasible(ctx, p));
  }

#ifdef GPUBARRIER_HAVE_NCCL
  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const mg::Team& team = mg::team_of(state);
    const Session& s = state.resource<Session>(team);
    const bool blocking = p.choice<Blocking>("blocking") == Blocking::sync_each_step;
    return mg::verify_host_barrier(ctx, team, [&](int l) { s.step(team, l, blocking); });
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const mg::Team& team = mg::team_of(state);
    const Session& s = state.resource<Session>(team);
    const bool blocking = p.choice<Blocking>("blocking") == Blocking::sync_each_step;
    Measurement loop = mg::team_loop_latency(
        ctx, team, osu_convention(), [&](int l) { s.step(team, l, blocking); },
        [&](int l) {
          team.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l))); });
        });
    if (blocking)
      return {loop, mg::team_host_loop(ctx, team, [&](int l) { s.step(team, l, true); })};
    // One rank's in-place allreduce enqueues no device work (NCCL's one-rank path): the
    // intervals are then the call's host cost alone.
    const std::string alone =
        team.size() == 1 ? "; one GPU: NCCL enqueues nothing for an in-place allreduce of one "
                           "rank, so this is the call's host cost"
                         : "";
    auto run = [&](long reps) {
      const auto t0 = std::chrono::steady_clock::now();
      team.parallel([&](int l) {
        for (long r = 0; r < reps; ++r) s.step(team, l, false);
        GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l)));
      });
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    Measurement d = differential(ctx, run);
    loop.note += alone;
    d.note += alone;
    return {as_back_to_back(std::move(loop)), as_back_to_back(std::move(d))};
  }

 private:
  // Communicators and one float per member's GPU.
  struct Session {
    explicit Session(const mg::Team& team) : comms(team) {
      for (int l = 0; l < team.local_count(); ++l) {
        auto* b = static_cast<float*>(
            device_allocation(buffers, team.device(l), sizeof(float), "an allreduce float"));
        GB_CUDA_CHECK(cudaMemset(b, 0, sizeof(float)));
        values.push_back(b);
      }
    }
    // Inside loops that meet the other members. The allreduce itself is not guarded: it is the
    // collective, which a failed member must still join; one that fails leaves the peers inside
    // NCCL's kernel, where no agreement reaches them (not covered: core/agreement.hpp).
    void step(const mg::Team& team, int l, bool blocking) const {
      GB_NCCL_CHECK(
          ncclAllReduce(values[l], values[l], 1, ncclFloat, ncclSum, comms.at(l), team.stream(l)));
      if (blocking) team.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l))); });
    }
    mg::NcclComms comms;
    Releases buffers;  // given back before the communicators
    std::vector<float*> values;
  };
#endif
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::NcclAllReduce)
