#include "jobs/scripts.hpp"

#include <algorithm>
#include <cctype>

#include "jobs/shell.hpp"
#include "jobs/step_command.hpp"
#include "jobs/template.hpp"
#include "jobs/text.hpp"

namespace gb::jobs {
namespace {

std::string job_name(const Plan& plan, const std::string& what) {
  std::string name =
      "gb-" + (plan.sweep.name.empty() ? std::string("sweep") : plan.sweep.name) + "-" + what;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return name;
}

std::string sbatch_block(const std::vector<std::string>& options) {
  std::vector<std::string> lines;
  for (const auto& o : options) lines.push_back("#SBATCH " + o);
  return join(lines, "\n");
}

// Where the job runs and who pays: the same for the measuring jobs and the merge job.
void add_site_options(const Plan& plan, std::vector<std::string>& options) {
  if (plan.request.partition) options.push_back("--partition=" + *plan.request.partition);
  if (plan.request.account) options.push_back("--account=" + *plan.request.account);
  options.push_back("--output=" + plan.request.out + "/logs/%x-%j.out");
}

std::vector<std::string> job_options(const Plan& plan, const Script& script) {
  std::vector<std::string> o{"--job-name=" + job_name(plan, script.name),
                             "--nodes=" + std::to_string(script.nodes)};
  // With more ranks than CPUs, Slurm 22.05 refuses task counts in the job request even with
  // --overcommit (--ntasks-per-node always, --ntasks together with GPUs), while each step may
  // still ask for them: the job then asks for nodes only.
  if (!script.overcommit) o.push_back("--ntasks-per-node=" + std::to_string(script.tasks_per_node));
  if (plan.system.slurm.cpus_per_task)
    o.push_back("--cpus-per-task=" + std::to_string(*plan.system.slurm.cpus_per_task));
  if (script.gpus_per_node > 0)
    o.push_back(plan.system.slurm.gpu_request == GpuRequest::GpusPerNode
                    ? "--gpus-per-node=" + std::to_string(script.gpus_per_node)
                    : "--gres=gpu:" + std::to_string(script.gpus_per_node));
  if (plan.exclusive) o.push_back("--exclusive");
  if (script.overcommit) o.push_back("--overcommit");
  o.push_back("--time=" + format_slurm_time(script.time_limit_s));
  add_site_options(plan, o);
  // A requeued job appends to its log instead of truncating the first run's.
  o.push_back("--open-mode=append");
  o.push_back("--signal=B:USR1@" + std::to_string(signal_lead_s(script.time_limit_s)));
  o.push_back("--requeue");
  return o;
}

std::string environment(const Plan& plan) {
  std::vector<std::string> modules;
  for (const auto& m : plan.system.slurm.modules) modules.push_back(shell_quote(m));
  std::string out = modules.empty() ? "" : "module load " + join(modules, " ") + "\n";
  for (const auto& [name, value] : plan.system.env)
    out += "export " + name + "=" + shell_quote(value) + "\n";
  if (const char* omp = unbound_omp_variable(plan)) out += "export " + std::string(omp) + "\n";
  return out;
}

std::string step_list(const Plan& plan, const Script& script) {
  std::size_t width = 0;
  for (const auto& s : script.steps) width = std::max(width, s.id.size());
  std::vector<std::string> lines;
  for (const auto& s : script.steps) {
    std::string id = s.id;
    id.resize(width, ' ');
    lines.push_back("#   " + id + "  " + describe_step(s, plan.select_gpus));
    lines.push_back("#   " + std::string(width, ' ') + "  " + describe_binding(plan, s));
  }
  return join(lines, "\n");
}

std::string steps(const Plan& plan, const Script& script) {
  std::vector<std::string> commands;
  for (const auto& s : script.steps) {
    const StepCommand c = step_command(plan, script, s);
    commands.push_back(shell_command({{"run_step", s.id}, c.launcher, c.wrapper, c.sweep}, "  "));
  }
  return join(commands, "\n");
}

std::string title(const Plan& plan, const Script& script) {
  const long points = script.points();
  return "gpubarrier: sweep " + plan.sweep.name + " on " + std::to_string(script.nodes) + " " +
         plan.system.name + " node" + (script.nodes > 1 ? "s" : "") + ", " +
         std::to_string(script.steps.size()) + " step(s), " + std::to_string(points) + " point(s)";
}

std::string gpubarrier_default(const Plan& plan) {
  return shell_quote(plan.request.gpubarrier);
}

std::string script_list(const Plan& plan) {
  std::vector<std::string> files;
  for (const auto& s : plan.scripts) files.push_back(script_file(plan, s));
  return join(files, " ");
}

}  // namespace

std::string script_file(const Plan& plan, const Script& script) {
  return script.name + (plan.request.scheduler == Scheduler::slurm ? ".sbatch" : ".sh");
}

long signal_lead_s(long time_limit_s) {
  return time_limit_s >= 600 ? 120 : std::max(30L, time_limit_s / 4);
}

std::string render_job_script(const Plan& plan, const Script& script) {
  TemplateValues v{{"TITLE", title(plan, script)},
                   {"COMMAND", plan.request.command_line},
                   {"STEP_LIST", step_list(plan, script)},
                   {"JOBDIR", shell_quote(plan.request.out)},
                   {"GPUBARRIER", gpubarrier_default(plan)},
                   {"ENVIRONMENT", environment(plan)},
                   {"STEPS", steps(plan, script)}};
  if (plan.request.scheduler == Scheduler::none) {
    const bool mpi = std::any_of(script.steps.begin(), script.steps.end(),
                                 [](const Step& s) { return s.mode == Mode::mpi; });
    v["MPIRUN_SETUP"] =
        mpi ? "# Open MPI refuses to start as root unless told.\n"
              "mpirun_args=()\n"
              "if [[ $(id -u) == 0 ]]; then mpirun_args+=(--allow-run-as-root); fi\n"
            : "";
    return render_template("plain-job.sh.in", v);
  }
  v["SBATCH"] = sbatch_block(job_options(plan, script));
  v["LEAD"] = std::to_string(signal_lead_s(script.time_limit_s));
  return render_template("slurm-job.sh.in", v);
}

std::string render_rank_wrapper() {
  return render_template("rank.sh.in", {});
}

std::string driver_file(const Plan& plan) {
  return plan.request.scheduler == Scheduler::slurm ? "submit.sh" : "run-all.sh";
}

std::string render_driver(const Plan& plan) {
  TemplateValues v{{"COMMAND", plan.request.command_line},
                   {"JOBDIR", shell_quote(plan.request.out)},
                   {"SCRIPTS", script_list(plan)}};
  if (plan.request.scheduler == Scheduler::slurm) return render_template("submit.sh.in", v);
  v["GPUBARRIER"] = gpubarrier_default(plan);
  return render_template("run-all.sh.in", v);
}

std::string render_merge_job(const Plan& plan) {
  std::vector<std::string> o{"--job-name=" + job_name(plan, "merge"), "--nodes=1", "--ntasks=1",
                             "--time=00:15:00"};
  add_site_options(plan, o);
  std::vector<std::string> merge;
  // With a container image, gpubarrier lives in the image: the merge runs as a one-task step.
  if (plan.request.container_image)
    merge = {"srun", "--ntasks=1",
             shell_quote("--container-image=" + *plan.request.container_image),
             shell_quote("--container-mounts=" + plan.request.out + ":" + plan.request.out)};
  for (const char* w : {"\"$GPUBARRIER\"", "merge", "\"${csvs[@]}\"", "--out",
                        "\"$JOBDIR/merged.csv\"", "--force", "--summary"})
    merge.emplace_back(w);
  return render_template("merge.sbatch.in", {{"SBATCH", sbatch_block(o)},
                                             {"COMMAND", plan.request.command_line},
                                             {"JOBDIR", shell_quote(plan.request.out)},
                                             {"GPUBARRIER", gpubarrier_default(plan)},
                                             {"MERGE", shell_command({merge}, "  ")}});
}

}  // namespace gb::jobs
