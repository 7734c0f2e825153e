// A session's RunContext: this rank's GPUs and settings, the machine's topology, and under
// mpirun/srun every rank's node and GPU, gathered once before any plan runs.
#pragma once

#include "app/session_args.hpp"
#include "core/run_context.hpp"

namespace gb::cli {

// Collective under mpirun/srun: every rank calls it, in the same place.
RunContext session_context(const Launch& launch, const SessionArgs& args);

}  // namespace gb::cli
