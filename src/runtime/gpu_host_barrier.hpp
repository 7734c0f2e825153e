// What every "empty kernel, stream wait, host barrier" method shares (host.mpi.gpu-barrier,
// host.omp.gpu-barrier): each member launches an empty kernel on its GPU, and then `wait(team,
// local)` waits for the member's stream and meets the others at the host barrier. `wait` meets
// the other members, so it must not throw: its own fallible work goes through team.guard().
#pragma once

#include <functional>
#include <vector>

#include "core/host_loop_reference.hpp"
#include "core/method.hpp"
#include "core/state.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

using MemberWait = std::function<void(const Team& team, int local)>;

// The check: every member's GPU stamps, `wait`, then every member's GPU reads every stamp
// (verify_host_barrier).
Verification verify_gpu_host_barrier(State& state, const MemberWait& wait);

// The rows: the reference tools' loop figure under `convention` (loop_latency), then the host
// loop (latency), each step an empty kernel and `wait`.
std::vector<Measurement> measure_gpu_host_barrier(State& state, LoopConvention convention,
                                                  const MemberWait& wait);

}  // namespace gb::mg
