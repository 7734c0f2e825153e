// What `run` and `sweep` share: MPI start-up, the run context, the output sinks, and running one
// or more plans into the same CSV.
#pragma once

#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/run_context.hpp"

namespace gb::cli {

struct SessionArgs {
  std::string gpus;
  std::string out;
  std::string system = "local";
  RunOptions options;
};

// One selection of methods with its axis overrides (a `run` or one entry of a sweep file).
struct PlanSpec {
  std::string methods = "*";
  std::vector<std::string> axes;
};

// Adds --gpus, --out, --system, --samples, --time-budget, --rse-target, --reps-lo, --reps-hi.
void add_session_options(CLI::App& cmd, SessionArgs& args);

// Validates every spec before anything is measured, then runs them in order into one CSV.
void execute_session(SessionArgs& args, const std::vector<PlanSpec>& specs,
                     const GlobalOptions& global);

}  // namespace gb::cli
