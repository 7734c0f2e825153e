#include "app/session_steps.hpp"

#include <cstdio>
#include <utility>

#include "app/default_out.hpp"
#include "app/session_options.hpp"
#include "core/names.hpp"
#include "core/record.hpp"
#include "errors/errors.hpp"

namespace gb::cli {

void agree_on_input(const Launch& launch, const std::string& mistake) {
  const std::vector<std::string> all = gather_strings(launch, mistake);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty()) continue;
    throw UsageError(r == 0 ? all[r] : "rank " + std::to_string(r) + ": " + all[r]);
  }
}

std::string session_run_id(const SessionArgs& args, const std::string& host) {
  return args.run_id.empty() ? make_run_id(host) : args.run_id;
}

std::vector<RunPlan> stamped(std::vector<RunPlan> plans, const std::string& run_id,
                             const std::string& topology_class) {
  for (auto& plan : plans) {
    plan.run_id = run_id;
    plan.topology_class = topology_class;
  }
  return plans;
}

std::optional<std::string> resolve_out(const std::string& out, const Launch& launch,
                                       const std::string& host, const std::string& run_id) {
  return out.empty() ? default_out(launch, host, run_id) : csv_path_of(out);
}

Isolation choose_isolation(Isolation asked, bool given, const Launch& launch) {
  if (asked == Isolation::none || !launch.under_mpi) return asked;
  if (launch.is_root() && given)
    std::fprintf(stderr,
                 "gpubarrier: note: --isolate %s does not apply under mpirun/srun (a rank cannot "
                 "be a child process); running without isolation. Isolate methods by running "
                 "each as its own mpirun/srun step (`gpubarrier jobs` does), with --resume.\n",
                 std::string(name_of(asked)).c_str());
  return Isolation::none;
}

std::vector<std::string> child_command(const std::string& executable, const SessionArgs& args,
                                       const GlobalOptions& global, const std::string& run_id) {
  const RunOptions& o = args.options;
  const std::pair<const char*, std::string> flags[] = {
      {"--out", "none"},
      {"--isolate", std::string(name_of(Isolation::none))},
      {"--system", args.system},
      {"--samples", std::to_string(o.samples)},
      {"--time-budget", exact_number(o.time_budget_s)},
      {"--rse-target", exact_number(o.rse_target)},
      {"--watchdog", exact_number(o.watchdog_s)},
      {"--reps-lo", std::to_string(o.reps_lo)},
      {"--reps-hi", std::to_string(o.reps_hi)},
      {"--run-id", run_id},
      {"--child-fd", "3"},
  };
  std::vector<std::string> cmd{executable, "-v", global.log_level, "run"};
  for (const auto& [flag, value] : flags) cmd.insert(cmd.end(), {flag, value});
  if (!args.gpus.empty()) cmd.insert(cmd.end(), {"--gpus", args.gpus});
  return cmd;
}

std::string summary_line(const RunTally& tally, const std::string& csv_path) {
  char line[160];
  std::snprintf(line, sizeof line,
                "%d rows: %d ok, %d skipped, %d failed, %d timeout, %d unverified", tally.total(),
                tally.ok, tally.skipped, tally.failed, tally.timeout, tally.unverified);
  return line + (csv_path.empty() ? std::string() : "; CSV: " + csv_path);
}

}  // namespace gb::cli
