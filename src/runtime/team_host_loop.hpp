// host-loop over a team: every member runs `step(local)` once per iteration, and an iteration's
// figure is the slowest member's (threads mode: max over threads; mpi mode: max over ranks).
#pragma once

#include <functional>

#include "core/host_loop_reference.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// `step` (and `finish` below) meets the other members: its own fallible work goes through
// team.guard(local, ...), so that it never throws past a barrier (core/agreement.hpp).
// `prelude` (optional, untimed; guarded likewise) runs on every member before every timed step,
// and the members meet after it (an OpenMP barrier in threads mode, MPI_Barrier in mpi mode), so
// that no member's timed step waits for another's prelude. Without it, nothing changes.
Measurement team_host_loop(const RunContext& ctx, const Team& team,
                           const std::function<void(int local)>& step,
                           const std::function<void(int local)>& prelude = {});

// The reference tools' loop figure over a team (metric loop_latency,
// core/host_loop_reference.hpp): every member times loops of `step(local)` followed by
// `finish(local)` (may be empty); a loop's figure combines the members' loop means by
// `convention.combine`. The statistic names the members: ranks in mpi mode, threads in
// threads mode (convention.members is replaced).
Measurement team_loop_latency(const RunContext& ctx, const Team& team, LoopConvention convention,
                              const std::function<void(int local)>& step,
                              const std::function<void(int local)>& finish = {});

}  // namespace gb::mg
