// Verification of host-side multi-GPU barriers: before the barrier each member's GPU stamps its
// own memory (each member late in turn); after it each member's GPU reads every member's stamp.
#pragma once

#include <functional>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// `barrier(local)` runs on the member's thread/rank after its stamp kernel was enqueued on
// team.stream(local); the check kernel follows on that stream once `barrier` returns. It meets
// the other members, so it must not throw: its own fallible work goes through team.guard().
Verification verify_host_barrier(const RunContext& ctx, const Team& team,
                                 const std::function<void(int local)>& barrier);

// The same check for one host thread that drives every GPU and waits for all of them.
Verification verify_launch_barrier(const RunContext& ctx, const Team& team,
                                   const std::function<void()>& wait_all);

}  // namespace gb::mg
