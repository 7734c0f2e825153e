// The decisions of a session between reading its request and measuring: which run id, which
// CSV, which isolation, how an isolated child is started, and the closing summary. Each takes
// what it reads and returns what it decides; app/session.cpp runs them in order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/session_args.hpp"
#include "core/launch.hpp"
#include "core/runner.hpp"

namespace gb::cli {

// Throws gb::UsageError on every rank with the mistake of the lowest rank that found one (named
// when it is not rank 0's own); returns when no rank did. Outside MPI, this process's mistake.
void agree_on_input(const Launch& launch, const std::string& mistake);

// The parent's run id for an isolated child (--run-id), else a new one for this host.
std::string session_run_id(const SessionArgs& args, const std::string& host);

// `plans` stamped with the session's run id and the topology class of its GPUs.
std::vector<RunPlan> stamped(std::vector<RunPlan> plans, const std::string& run_id,
                             const std::string& topology_class);

// The CSV's path: --out's (std::nullopt for "none": no CSV), else results/local/<host>-<time>.csv
// claimed by rank 0 for every rank (app/default_out.hpp).
std::optional<std::string> resolve_out(const std::string& out, const Launch& launch,
                                       const std::string& host, const std::string& run_id);

// The isolation the session runs with: `asked`, except none under mpirun/srun, where every rank
// is one process of one job and a child per method cannot be a rank (the job generator isolates
// by running each method as its own step). A choice `given` explicitly is noted on rank 0's
// stderr when it does not apply.
Isolation choose_isolation(Isolation asked, bool given, const Launch& launch);

// How an isolated child is started: `executable -v LEVEL run` with this session's settings as
// explicit flags (they beat the GPUBARRIER_* variables it inherits), writing no file of its own
// and reporting to the parent's pipe; the method, its axes and the child's hidden flags are added
// per child.
std::vector<std::string> child_command(const std::string& executable, const SessionArgs& args,
                                       const GlobalOptions& global, const std::string& run_id);

// "N rows: N ok, N skipped, N failed, N timeout, N unverified[; CSV: PATH]", the session's last
// line on rank 0's stderr; `csv_path` "" when no CSV was written.
std::string summary_line(const RunTally& tally, const std::string& csv_path);

}  // namespace gb::cli
