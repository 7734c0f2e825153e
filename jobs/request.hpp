// What `gpubarrier jobs` was asked for, as plain values: the CLI fills it, the tests build it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/names.hpp"

namespace gb::jobs {

// What the scripts are for: sbatch scripts, or plain bash scripts with mpirun -np k per count.
enum class Scheduler { slurm, none };
inline constexpr std::array<Named<Scheduler>, 2> kSchedulerNames{{
    {Scheduler::slurm, "slurm"},
    {Scheduler::none, "none"},
}};
constexpr const auto& name_table(Scheduler) {
  return kSchedulerNames;
}

// How the scripts place the processes and threads that spin in host barriers (docs/cluster.md,
// "CPU binding"). core, as the reference tools are run (mpirun's default for 2 ranks, OSU's
// binding; EPCC's OMP_PROC_BIND=close with OMP_PLACES=cores): every MPI rank on a core of its
// own (mpirun --bind-to core, srun --cpu-bind=cores), then onto its GPU's CPUs by rank.sh where
// the system file knows them, and gpubarrier pins its OpenMP threads one per CPU. none: nothing
// is bound (mpirun --bind-to none, srun --cpu-bind=none, no taskset, OMP_PROC_BIND=false).
enum class Bind { core, none };
inline constexpr std::array<Named<Bind>, 2> kBindNames{{
    {Bind::core, "core"},
    {Bind::none, "none"},
}};
constexpr const auto& name_table(Bind) {
  return kBindNames;
}

// Which GPUs of each count a step takes where --subsets asks: the best- or the worst-connected
// (topology/subsets.hpp).
enum class Subset { best, worst };
inline constexpr std::array<Named<Subset>, 2> kSubsetNames{{
    {Subset::best, "best"},
    {Subset::worst, "worst"},
}};
constexpr const auto& name_table(Subset) {
  return kSubsetNames;
}

// --subsets' words, in their order. Throws gb::UsageError "--subsets WORD: expected best or
// worst (...)", with the closest name, for any other word.
std::vector<Subset> parse_subsets(const std::vector<std::string>& words);

struct JobRequest {
  std::string system;  // a name in configs/systems or a path
  std::string sweep;   // a name in configs/sweeps or a path
  std::string out;     // the job folder
  std::vector<int> nodes{1};
  std::vector<int> gpu_counts;  // --gpu-counts, per node; empty: every count the sweep asks for
  std::vector<Subset> subsets;  // empty: the first k GPUs
  Scheduler scheduler = Scheduler::slurm;
  Bind bind = Bind::core;
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
