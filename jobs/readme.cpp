#include "jobs/readme.hpp"

#include <set>

#include "core/glob.hpp"
#include "jobs/scripts.hpp"
#include "jobs/step_command.hpp"
#include "jobs/text.hpp"
#include "topology/binding_advice.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/topology_class.hpp"

namespace gb::jobs {
namespace {

std::string machine(const Plan& plan) {
  const auto& sys = plan.system;
  const auto& topo = plan.topology;
  std::string out = "## The machine\n\n";
  if (topo.gpu_count() == 0) return out + sys.name + ": no GPU (the probe found none).\n\n";
  out += "- " + sys.name + " (" + sys.source + "): " + std::to_string(topo.gpu_count()) + " x " +
         (sys.gpu_model.empty() ? topo.gpus.front().name : sys.gpu_model) + " per node";
  if (!sys.cuda_arch().empty())
    out += ", build gpubarrier with `CUDA_ARCH=" + sys.cuda_arch() + "`";
  if (sys.fake_gpus) out += "; fake gres GPUs: only CPU-only methods run";
  out += "\n- topology class `" + topo::topology_class(topo) + "`, NVLink groups";
  for (const auto& g : topo::nvlink_groups(topo)) out += " {" + join_ints(g) + "}";
  out += plan.request.bind == Bind::core
             ? "\n- CPUs local to each GPU (`rank.sh` binds each rank to one core of its GPU's, and "
               "that core's hyperthread sibling; the scripts' comments list each step's):"
             : "\n- CPUs local to each GPU (`--bind none`: no rank is bound to them):";
  std::vector<std::string> cpus;
  for (const auto& b : topo::binding_advice(topo).gpus)
    cpus.push_back(std::to_string(b.gpu) + ": " + (b.cpulist.empty() ? "unknown" : b.cpulist));
  return out + " " + join(cpus, "; ") + "\n\n";
}

std::string method_list(const Step& step) {
  std::set<std::string> names;
  for (const auto& e : step.sweep.runs)
    for (const auto& m : split_list(e.methods)) names.insert("`" + m + "`");
  return join({names.begin(), names.end()}, ", ");
}

std::string scripts(const Plan& plan) {
  const bool slurm = plan.request.scheduler == Scheduler::slurm;
  std::string out = "## What each script measures\n\n| script | nodes | steps | points | ";
  out += slurm ? "time limit |\n" : "estimated time |\n";
  out += "|---|---|---|---|---|\n";
  for (const auto& s : plan.scripts)
    out += "| `" + script_file(plan, s) + "` | " + std::to_string(s.nodes) + " | " +
           std::to_string(s.steps.size()) + " | " + std::to_string(s.points()) + " | " +
           format_slurm_time(slurm ? s.time_limit_s : static_cast<long>(s.seconds())) + " |\n";
  out +=
      "\nEvery step is one `gpubarrier sweep --resume` of `sweeps/<step>.yaml` into "
      "`results/<step>.csv`:\n\n";
  for (const auto& s : plan.scripts)
    for (const auto& step : s.steps)
      out += "- `" + step.id + "` (" + script_file(plan, s) +
             "): " + describe_step(step, plan.select_gpus) + ": " + method_list(step) + "\n";
  return out + "\n";
}

std::string run_slurm(const Plan& plan) {
  return "## Submit, watch, merge\n\n"
         "```\n"
         "bash " +
         plan.request.out +
         "/submit.sh   # every job, then merge.sbatch (afterany)\n"
         "squeue --me                          # or squeue -j <the ids submit.sh printed>\n"
         "tail -f " +
         plan.request.out +
         "/logs/*.out\n"
         "```\n\n"
         "The merge job writes `merged.csv` and prints a summary table into its log "
         "(`logs/gb-" +
         plan.sweep.name +
         "-merge-<id>.out`). By hand, at any time:\n\n"
         "```\n" +
         plan.request.gpubarrier + " merge " + plan.request.out + "/results/*.csv --out " +
         plan.request.out +
         "/merged.csv --summary\n```\n\n"
         "A job near its time limit gets USR1 and requeues itself (at most "
         "`GPUBARRIER_MAX_REQUEUES`, 3, times); every step then resumes its CSV where it stopped. "
         "A step that ends inside a point because a rank or its node died gets that point's "
         "`timeout` row (`gpubarrier lost-point`, note `lost: ...`) and goes on from the next "
         "point, at most `GPUBARRIER_MAX_LOST` (3) times; the job then ends FAILED. "
         "To run one script alone: `sbatch " +
         plan.request.out + "/" + script_file(plan, plan.scripts.front()) +
         "`. Set `GPUBARRIER` to use another gpubarrier executable. A requeued job starts again "
         "after Slurm's requeue delay (about two minutes).\n\n"
         "The scripts name this folder and gpubarrier by absolute paths, which the compute nodes "
         "must see (a shared file system), or use a container image (`--container-image`).\n\n";
}

std::string run_plain(const Plan& plan) {
  return "## Run and merge\n\n"
         "```\n"
         "bash " +
         plan.request.out +
         "/run-all.sh   # every script in turn, then the merge\n"
         "```\n\n"
         "Each script runs its steps one after the other (`mpirun -np k` for the mpi-mode ones) "
         "and may be run alone; running it again after an interruption resumes every step. "
         "`run-all.sh` ends with `gpubarrier merge results/*.csv --out merged.csv --summary`.\n\n";
}

std::string footer(const Plan& plan) {
  std::string out;
  if (plan.request.scheduler == Scheduler::slurm)
    out += "## Time limits\n\n" + (plan.time_estimated ? "Estimated per script: " + plan.estimate +
                                                             ". `--time` sets them instead.\n\n"
                                                       : std::string("As given by `--time`.\n\n"));
  if (!plan.notes.empty()) {
    out += "## Notes\n\n";
    for (const auto& n : plan.notes) out += "- " + n + "\n";
    out += "\n";
  }
  return out +
         "Generating again into this folder rewrites the scripts and keeps `results/`, so "
         "the steps resume.\n";
}

}  // namespace

std::string render_readme(const Plan& plan) {
  std::string out = "# gpubarrier jobs: sweep " + plan.sweep.name + " on " + plan.system.name +
                    "\n\nWritten by `" + plan.request.command_line + "` from `" + plan.sweep_path +
                    "`.\n\n";
  out += machine(plan) + scripts(plan);
  out += plan.request.scheduler == Scheduler::slurm ? run_slurm(plan) : run_plain(plan);
  return out + footer(plan);
}

}  // namespace gb::jobs
