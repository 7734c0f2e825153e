// What `run` and `sweep` share: one session that reads what it is asked (app/session_request.hpp),
// starts MPI when mpirun/srun started it, decides its run id, outputs and isolation
// (app/session_steps.hpp) and runs its plans into one CSV.
#pragma once

#include "app/commands.hpp"
#include "app/session_args.hpp"

namespace gb::cli {

// Reads and validates every spec before anything is measured, then runs them in order into one
// CSV. Bad input (gb::UsageError) found before measuring is agreed on under mpirun/srun: every
// rank throws the lowest such rank's message, after MPI's orderly end, so that all exit 2 and
// none waits for a rank that left (main prints it on rank 0 alone).
void execute_session(const SessionArgs& args, const SpecReader& read_specs,
                     const GlobalOptions& global, const Narrowing& narrowing = {});

}  // namespace gb::cli
