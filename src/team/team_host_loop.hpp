// host-loop over a team: every member runs `step(local)` once per iteration, and an iteration's
// figure is the slowest member's (threads mode: max over threads; mpi mode: max over ranks).
#pragma once

#include <functional>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "team/team.hpp"

namespace gb::mg {

Measurement team_host_loop(const RunContext& ctx, const Team& team,
                           const std::function<void(int local)>& step);

}  // namespace gb::mg
