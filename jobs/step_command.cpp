#include "jobs/step_command.hpp"

#include <algorithm>
#include <cstdint>

#include "core/glob.hpp"
#include "jobs/shell.hpp"
#include "jobs/text.hpp"
#include "topology/cpulist.hpp"

namespace gb::jobs {
namespace {

bool cpus_known(const Step& step) {
  return !step.cpus.empty() && std::none_of(step.cpus.begin(), step.cpus.end(),
                                            [](const std::string& c) { return c.empty(); });
}

// The CPUs srun gives a step of one process, explicitly (a step does not inherit the job's
// --cpus-per-task on every Slurm): those of its GPUs where known, else the system's
// cpus_per_task; within what a job that does not hold whole nodes was given. 0: not known.
int one_process_cpus(const Plan& plan, const Script& script, const Step& step) {
  const auto per_task = plan.system.slurm.cpus_per_task;
  int cpus = 0;
  if (cpus_known(step))
    cpus = static_cast<int>(topo::parse_cpulist(step.cpus[0]).value_or(std::vector<int>{}).size());
  if (cpus == 0) cpus = per_task.value_or(0);
  if (!plan.exclusive && per_task) cpus = std::min(cpus, script.tasks_per_node * *per_task);
  return cpus;
}

// rank.sh's GPUS and CPUS arguments: one entry per local rank ('/'), '-' for none (also for
// every CPUS under --bind none).
std::vector<std::string> wrapper(const Plan& plan, const Step& step) {
  const bool ranks = step.mode == Mode::mpi;
  std::string gpus = "-";
  if (plan.select_gpus && !step.gpus.empty()) gpus = join_ints(step.gpus, ranks ? "/" : ",");
  const bool known = plan.request.bind == Bind::core && cpus_known(step);
  const std::string cpus = known ? join(step.cpus, "/") : "-";
  return {"\"$JOBDIR/rank.sh\"", ranks ? "ranks" : "process", shell_quote(gpus), shell_quote(cpus),
          "--"};
}

std::vector<std::string> container(const Plan& plan) {
  if (!plan.request.container_image) return {};
  return {shell_quote("--container-image=" + *plan.request.container_image),
          shell_quote("--container-mounts=" + plan.request.out + ":" + plan.request.out)};
}

// mpirun's binding of the ranks (JobRequest::bind): a core each, as mpirun binds 2 ranks by
// default and OSU's barrier runs; a node with fewer cores than ranks still runs the step (its
// rows then say oversubscribed) instead of mpirun refusing it.
std::string mpirun_binding(const Plan& plan) {
  return plan.request.bind == Bind::core ? "core:overload-allowed" : "none";
}

std::vector<std::string> launcher(const Plan& plan, const Script& script, const Step& step) {
  const bool mpi = step.mode == Mode::mpi;
  const std::string n = std::to_string(step.nodes), k = std::to_string(step.per_node);
  if (plan.request.scheduler == Scheduler::none) {
    if (!mpi) return {};
    return {"mpirun", "\"${mpirun_args[@]}\"", "-np", k, "--bind-to", mpirun_binding(plan)};
  }
  if (mpi && plan.system.slurm.launcher == Launcher::Mpirun) {
    std::vector<std::string> words{"mpirun",
                                   "-np",
                                   std::to_string(step.nodes * step.per_node),
                                   "--map-by",
                                   "ppr:" + k + ":node",
                                   "--bind-to",
                                   mpirun_binding(plan)};
    for (const auto& [name, value] : plan.system.env) words.insert(words.end(), {"-x", name});
    if (unbound_omp_variable(plan)) words.insert(words.end(), {"-x", "OMP_PROC_BIND"});
    return words;
  }
  // One process per step that is no MPI rank: --mpi=none, and rank.sh hides SLURM_PROCID.
  std::vector<std::string> words{"srun", "--nodes=" + n};
  // --ntasks too: a step inherits the job's SLURM_NTASKS, which would override --ntasks-per-node.
  // A rank that fails ends the step (--kill-on-bad-exit) instead of leaving the others waiting
  // in a barrier until the time limit.
  if (mpi)
    words.insert(words.end(), {"--ntasks=" + std::to_string(step.nodes * step.per_node),
                               "--ntasks-per-node=" + k, "--kill-on-bad-exit=1",
                               "--mpi=" + plan.system.slurm.srun_mpi});
  else
    words.insert(words.end(), {"--ntasks=1", "--mpi=none"});
  if (const int cpus = mpi ? 0 : one_process_cpus(plan, script, step); cpus > 0)
    words.push_back("--cpus-per-task=" + std::to_string(cpus));
  // Ranks: a core each (JobRequest::bind), which rank.sh then moves to its own core of its GPU's
  // NUMA node where the system file knows it (jobs/rank_cores.hpp). One process: all the CPUs of
  // its step, where gpubarrier pins its OpenMP threads one per CPU; a core of its own would
  // crowd them onto it.
  const bool cores = mpi && plan.request.bind == Bind::core;
  words.push_back(cores ? "--cpu-bind=cores" : "--cpu-bind=none");
  if (script.overcommit) words.push_back("--overcommit");
  for (auto& w : container(plan)) words.push_back(std::move(w));
  return words;
}

}  // namespace

const char* unbound_omp_variable(const Plan& plan) {
  if (plan.request.bind != Bind::none) return nullptr;
  for (const auto& [name, value] : plan.system.env)
    if (name == "OMP_PROC_BIND") return nullptr;  // the system file's setting stands
  return "OMP_PROC_BIND=false";
}

std::string step_sweep_file(const Step& step) {
  return "sweeps/" + step.id + ".yaml";
}
std::string step_csv_file(const Step& step) {
  return "results/" + step.id + ".csv";
}

StepCommand step_command(const Plan& plan, const Script& script, const Step& step) {
  return {launcher(plan, script, step),
          wrapper(plan, step),
          // An option and its value stay on one line.
          {"\"$GPUBARRIER\"", "sweep", "\"$JOBDIR/" + step_sweep_file(step) + "\"", "--resume",
           "--out \"$JOBDIR/" + step_csv_file(step) + "\"",
           "--system " + shell_quote(plan.system.name)}};
}

std::string describe_step(const Step& step, bool select_gpus) {
  std::string what = step.mode == Mode::single ? "one process"
                     : step.mode == Mode::threads
                         ? "threads mode, one process"
                         : "mpi mode, " + std::to_string(step.per_node) + " rank(s) per node";
  if (step.nodes > 1) what += " on " + std::to_string(step.nodes) + " nodes";
  if (!step.gpus.empty())
    what += std::string(select_gpus ? ", GPU" : ", CPUs of fake GPU") +
            (step.gpus.size() > 1 ? "s " : " ") + join_ints(step.gpus, ",") +
            (step.subset ? " (" + std::string(name_of(*step.subset)) + ")" : "");
  std::vector<std::string> methods;
  for (const auto& e : step.sweep.runs)
    for (const auto& m : split_list(e.methods))
      if (std::find(methods.begin(), methods.end(), m) == methods.end()) methods.push_back(m);
  return what + ": " + std::to_string(methods.size()) + " method(s), " +
         std::to_string(step.points) + " point(s)";
}

std::string describe_binding(const Plan& plan, const Step& step) {
  if (plan.request.bind == Bind::none) return "no CPU binding (--bind none)";
  if (!cpus_known(step))
    return step.mode == Mode::mpi ? "each rank on a core of its own, where the launcher puts it"
                                  : "one process on the CPUs the launcher gives it";
  if (step.mode != Mode::mpi) return "one process on CPUs " + step.cpus[0];
  std::size_t most = 0, least = SIZE_MAX;
  for (const auto& c : step.cpus) {
    const std::size_t n = topo::parse_cpulist(c).value_or(std::vector<int>{}).size();
    most = std::max(most, n);
    least = std::min(least, n);
  }
  const std::string where =
      !plan.select_gpus ? "each rank on the CPUs of its fake GPU"
      : most == 1       ? "each rank on one core of its GPU's NUMA node"
      : least == 2 && most == 2
          ? "each rank on one core of its GPU's NUMA node and its hyperthread sibling"
          : "each rank on CPUs of its GPU's NUMA node";
  return where + " (CPUs " + join(step.cpus, " / ") + ")";
}

}  // namespace gb::jobs
