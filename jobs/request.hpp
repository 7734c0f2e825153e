// What `gpubarrier jobs` was asked for, as plain values: the CLI fills it, the tests build it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gb::jobs {

enum class Scheduler { slurm, none };

struct JobRequest {
  std::string system;  // a name in configs/systems or a path
  std::string sweep;   // a name in configs/sweeps or a path
  std::string out;     // the job folder
  std::vector<int> nodes{1};
  std::vector<int> gpus;             // GPU counts per node; empty: every count the sweep asks for
  std::vector<std::string> subsets;  // "best", "worst"; empty: the first k GPUs
  Scheduler scheduler = Scheduler::slurm;
  bool one_job_per_point = false;
  std::optional<std::string> partition;        // overrides the system file's
  std::optional<std::string> account;          // overrides the system file's
  std::optional<std::string> container_image;  // overrides the system file's (Pyxis)
  std::optional<long> time_limit_s;            // --time; unset: estimated per script
  std::string gpubarrier;                      // the executable the scripts run
  std::string command_line;                    // how the generator was called, for headers
};

// Slurm's --time formats: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
// days-hours:minutes, days-hours:minutes:seconds. Throws gb::UsageError naming them.
long parse_slurm_time(const std::string& text);

// "HH:MM:SS", or "D-HH:MM:SS" from one day on.
std::string format_slurm_time(long seconds);

}  // namespace gb::jobs
