// The command line of one step: its launcher (srun, mpirun, or none for one process), the rank
// wrapper that picks each rank's GPU by its local rank and binds it to the GPU's CPUs, and the
// `gpubarrier sweep --resume` into the step's own CSV. Shared by Slurm and plain scripts.
#pragma once

#include <string>
#include <vector>

#include "jobs/plan.hpp"

namespace gb::jobs {

// Shell words, quoted; $JOBDIR and $GPUBARRIER are the scripts' variables. Three parts, one line
// each in a script: the launcher (empty for a plain single process), the rank wrapper, the sweep.
struct StepCommand {
  std::vector<std::string> launcher;
  std::vector<std::string> wrapper;
  std::vector<std::string> sweep;
};
StepCommand step_command(const Plan& plan, const Script& script, const Step& step);

// "OMP_PROC_BIND=false" under --bind none (gpubarrier then leaves its OpenMP threads where the
// OpenMP runtime puts them), unless the system file's env sets OMP_PROC_BIND; else null.
const char* unbound_omp_variable(const Plan& plan);

// The step's files relative to the job folder.
std::string step_sweep_file(const Step& step);  // "sweeps/<id>.yaml"
std::string step_csv_file(const Step& step);    // "results/<id>.csv"

// What a step measures, in one line ("threads mode, GPUs 0,1,2,3 (best): 9 methods, 324 points").
std::string describe_step(const Step& step, bool select_gpus);

// Where the step's processes run, in one line ("each rank on one core of its GPU's NUMA node and
// its hyperthread sibling (CPUs 0,112 / 1,113)", "one process on CPUs 0-55,112-167").
std::string describe_binding(const Plan& plan, const Step& step);

}  // namespace gb::jobs
