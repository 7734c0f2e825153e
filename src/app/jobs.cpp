// `gpubarrier jobs`: the Slurm (or plain) scripts that run a sweep on a system, one job per node
// count by default. The generator is the jobs/ library; this file is its command line.
#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/commands.hpp"
#include "core/glob.hpp"
#include "errors/errors.hpp"
#include "jobs/job_folder.hpp"
#include "jobs/plan.hpp"
#include "jobs/scripts.hpp"
#include "jobs/shell.hpp"

namespace gb::cli {
namespace {

struct JobsArgs {
  jobs::JobRequest request;
  std::string nodes = "1";
  std::string gpu_counts;
  std::string gpus;  // run's and sweep's flag, refused here with the name of this one
  std::string subsets;
  std::string scheduler = "slurm";
  std::string bind = "core";
  std::string time;
  bool dry_run = false;
};

std::vector<int> counts(const std::string& flag, const std::string& text) {
  std::vector<int> out;
  for (const auto& item : split_list(text)) {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || ptr != item.data() + item.size())
      throw UsageError(flag + " '" + text + "': expected a list of counts such as 1,2,4,8");
    out.push_back(value);
  }
  return out;
}

// The executable the scripts run: this one, by its absolute path.
std::string self_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpubarrier") : path.string();
}

// The command as a user would type it again (the options given, in a fixed order).
std::string command_line(const CLI::App& cmd, const JobsArgs& a) {
  std::string out = "gpubarrier jobs";
  const std::pair<const char*, std::string> options[] = {
      {"--system", a.request.system},
      {"--sweep", a.request.sweep},
      {"--out", a.request.out},
      {"--nodes", a.nodes},
      {"--gpu-counts", a.gpu_counts},
      {"--subsets", a.subsets},
      {"--scheduler", a.scheduler},
      {"--bind", a.bind},
      {"--partition", a.request.partition.value_or("")},
      {"--account", a.request.account.value_or("")},
      {"--time", a.time},
      {"--container-image", a.request.container_image.value_or("")},
      {"--gpubarrier", a.request.gpubarrier}};
  for (const auto& [flag, value] : options)
    if (cmd.count(flag) > 0) out += std::string(" ") + flag + " " + jobs::shell_quote(value);
  if (a.request.one_job_per_point) out += " --one-job-per-point";
  return out;
}

nlohmann::json plan_json(const jobs::Plan& plan) {
  nlohmann::json scripts = nlohmann::json::array();
  for (const auto& s : plan.scripts) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : s.steps)
      steps.push_back({{"id", step.id},
                       {"nodes", step.nodes},
                       {"mode", to_string(step.mode)},
                       {"per_node", step.per_node},
                       {"subset", step.subset ? std::string(name_of(*step.subset)) : ""},
                       {"gpus", step.gpus},
                       {"cpus", step.cpus},
                       {"points", step.points}});
    scripts.push_back({{"file", jobs::script_file(plan, s)},
                       {"nodes", s.nodes},
                       {"time_limit", jobs::format_slurm_time(s.time_limit_s)},
                       {"points", s.points()},
                       {"steps", steps}});
  }
  return {{"out", plan.request.out},  {"system", plan.system.name},
          {"sweep", plan.sweep_path}, {"scripts", scripts},
          {"notes", plan.notes},      {"time_estimated", plan.time_estimated},
          {"estimate", plan.estimate}};
}

void run_jobs(JobsArgs& a, const CLI::App& cmd, const GlobalOptions& global) {
  if (cmd.count("--gpus") > 0)
    throw UsageError("jobs --gpus " + a.gpus +
                     ": jobs takes GPU counts per node as --gpu-counts (e.g. --gpu-counts " +
                     (a.gpus.empty() ? std::string("1,2,4,8") : a.gpus) +
                     "); --gpus is run's and sweep's list of GPU indices");
  auto& req = a.request;
  req.nodes = counts("--nodes", a.nodes);
  req.gpu_counts = counts("--gpu-counts", a.gpu_counts);
  req.subsets = jobs::parse_subsets(split_list(a.subsets));
  req.scheduler = parse_name<jobs::Scheduler>(a.scheduler, "--scheduler");
  req.bind = parse_name<jobs::Bind>(a.bind, "--bind");
  if (!a.time.empty()) req.time_limit_s = jobs::parse_slurm_time(a.time);
  req.command_line = command_line(cmd, a);
  const bool own_executable = req.gpubarrier.empty();
  jobs::Plan plan = jobs::make_plan(req, jobs::registered_methods());
  // Inside a container image gpubarrier is the image's; otherwise the scripts run this one.
  if (own_executable)
    plan.request.gpubarrier = plan.request.container_image ? "gpubarrier" : self_executable();
  const auto files = jobs::job_files(plan);
  if (a.dry_run)
    jobs::check_job_folder(plan, files);  // refuses what writing would, and writes nothing
  else
    jobs::write_job_folder(plan, files);
  if (global.json) {
    std::printf("%s\n", plan_json(plan).dump(2).c_str());
    return;
  }
  std::fputs(jobs::summary(plan, a.dry_run).c_str(), stdout);
  if (a.dry_run)
    for (const auto& f : files)
      std::printf("\n----- %s/%s\n%s", plan.request.out.c_str(), f.path.c_str(), f.text.c_str());
}

}  // namespace

void add_jobs_command(CLI::App& app, GlobalOptions& global) {
  auto args = std::make_shared<JobsArgs>();
  auto* cmd = app.add_subcommand(
      "jobs",
      "Write the Slurm jobs (or plain scripts) that run a sweep on a system: one sbatch script\n"
      "per node count whose job steps run every GPU count and subset in one allocation, a merge\n"
      "job, submit.sh and a README. Impossible requests are refused with the reason.\n"
      "Example: gpubarrier jobs --system dgx-h100 --sweep paper --out jobs/generated/h100");
  auto& r = args->request;
  cmd->add_option("--system", r.system,
                  "A name in configs/systems (dgx-h100, local-slurm) or a path")
      ->required();
  cmd->add_option("--sweep", r.sweep, "A name in configs/sweeps (paper, quick) or a path")
      ->required();
  cmd->add_option("--out", r.out,
                  "Folder for the scripts: new, empty, or one gpubarrier jobs made (regenerating "
                  "keeps its results/ and logs/)")
      ->required();
  cmd->add_option("--nodes", args->nodes, "Node counts, one script each, e.g. 1,2")
      ->capture_default_str();
  cmd->add_option("--gpu-counts", args->gpu_counts,
                  "GPU counts per node, one step each, e.g. 1,2,4,8 (default: every count the "
                  "sweep asks for; gpu_count: all is 1..GPUs per node). Without GPUs: ranks per "
                  "node of the host methods");
  cmd->add_option("--gpus", args->gpus)->group("");  // hidden: refused, naming --gpu-counts
  cmd->add_option("--subsets", args->subsets,
                  "best,worst: the best- and worst-connected GPUs of each count (whole nodes)");
  cmd->add_option("--scheduler", args->scheduler,
                  "slurm: sbatch scripts; none: plain bash scripts with mpirun -np k per count")
      ->check(CLI::IsMember(names_of<jobs::Scheduler>()))
      ->capture_default_str();
  cmd->add_option("--bind", args->bind,
                  "core: every MPI rank on a core of its own (mpirun --bind-to core, srun "
                  "--cpu-bind=cores), then on its GPU's CPUs, and OpenMP threads pinned one per "
                  "CPU, as the reference tools are run; none: nothing bound (OMP_PROC_BIND=false)")
      ->check(CLI::IsMember(names_of<jobs::Bind>()))
      ->capture_default_str();
  cmd->add_flag("--one-job-per-point", r.one_job_per_point,
                "One job per GPU-count/subset step instead of one per node count");
  cmd->add_option("--partition", r.partition, "Slurm partition (default: the system file's)");
  cmd->add_option("--account", r.account, "Slurm account (default: the system file's)");
  cmd->add_option("--time", args->time,
                  "Time limit of every job, e.g. 02:00:00 (default: estimated per script from "
                  "points x time budget, and printed)");
  cmd->add_option("--container-image", r.container_image,
                  "Pyxis image holding gpubarrier (srun --container-image)");
  cmd->add_option("--gpubarrier", r.gpubarrier,
                  "The gpubarrier the jobs run (default: this executable; with a container "
                  "image: gpubarrier in the image)");
  cmd->add_flag("--dry-run", args->dry_run, "Print what would be written; write nothing");
  cmd->add_flag("--json", global.json, "The plan as JSON on stdout instead of the summary");
  cmd->callback([args, cmd, &global] { run_jobs(*args, *cmd, global); });
}

}  // namespace gb::cli
