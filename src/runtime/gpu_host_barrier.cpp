#include "runtime/gpu_host_barrier.hpp"

#include "runtime/host_steps.hpp"
#include "runtime/host_verify.hpp"
#include "runtime/team_host_loop.hpp"

namespace gb::mg {

Verification verify_gpu_host_barrier(State& state, const MemberWait& wait) {
  const Team& team = team_of(state);
  return verify_host_barrier(state.ctx(), team, [&](int l) { wait(team, l); });
}

std::vector<Measurement> measure_gpu_host_barrier(State& state, LoopConvention convention,
                                                  const MemberWait& wait) {
  const RunContext& ctx = state.ctx();
  const Team& team = team_of(state);
  const auto step = [&](int l) {
    team.guard(l, [&] { launch_empty(team.stream(l)); });
    wait(team, l);
  };
  return {team_loop_latency(ctx, team, convention, step), team_host_loop(ctx, team, step)};
}

}  // namespace gb::mg
