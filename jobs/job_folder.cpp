#include "jobs/job_folder.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "errors/errors.hpp"
#include "io/atomic_file.hpp"
#include "jobs/out_folder.hpp"
#include "jobs/readme.hpp"
#include "jobs/scripts.hpp"
#include "jobs/step_sweep.hpp"

namespace gb::jobs {
namespace fs = std::filesystem;
namespace {

// The stamp names the system and sweep of the folder's results, then lists the files written,
// so that a later generation can remove what it no longer writes.
std::string identity(const Plan& plan) {
  return "system: " + plan.system.name + "\nsweep: " + plan.sweep_path + "\n";
}

std::string stamp(const Plan& plan, const std::vector<JobFile>& files) {
  std::string out = identity(plan) + "files:\n";
  for (const auto& f : files) out += "  " + f.path + "\n";
  return out;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Results of another generation would end up in this folder's merged CSV.
void check_results(const Plan& plan) {
  const fs::path dir(plan.request.out);
  std::error_code ec;
  std::set<std::string> steps;
  for (const auto& s : plan.scripts)
    for (const auto& step : s.steps) steps.insert(step.id);
  std::vector<std::string> foreign;
  bool any = false;
  for (const auto& f : fs::directory_iterator(dir / "results", ec)) {
    if (f.path().extension() != ".csv") continue;
    any = true;
    if (!steps.count(f.path().stem().string())) foreign.push_back(f.path().filename().string());
  }
  if (!any) return;
  const std::string old = read(dir / kStampFile);
  const std::string old_identity = old.substr(0, old.find("files:"));
  if (!old.empty() && old_identity != identity(plan))
    throw UsageError(plan.request.out + "/results holds results of another generation (" +
                     old_identity.substr(0, old_identity.size() - 1) +
                     "): choose another --out, or remove that results/ folder");
  if (!foreign.empty())
    throw UsageError(plan.request.out + "/results/" + foreign.front() +
                     " is from a step this generation does not have (other --nodes, --gpu-counts or "
                     "--subsets?): choose another --out, or remove that results/ folder");
}

// Atomically (io/atomic_file.hpp): a full disk leaves the file as it was and is an error of
// the machine (gb::Error, exit 1), not of the request.
void write_file(const fs::path& path, const std::string& text, bool executable) {
  write_file_atomically(path.string(), text);
  if (executable) {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
    if (ec) throw Error("cannot make '" + path.string() + "' executable: " + ec.message());
  }
}

}  // namespace

std::vector<JobFile> job_files(const Plan& plan) {
  std::vector<JobFile> files;
  for (const auto& s : plan.scripts)
    files.push_back({script_file(plan, s), render_job_script(plan, s), true});
  files.push_back({"rank.sh", render_rank_wrapper(), true});
  files.push_back({driver_file(plan), render_driver(plan), true});
  if (plan.request.scheduler == Scheduler::slurm)
    files.push_back({"merge.sbatch", render_merge_job(plan), true});
  for (const auto& s : plan.scripts)
    for (const auto& step : s.steps)
      files.push_back({"sweeps/" + step.id + ".yaml", render_step_sweep(plan, step), false});
  files.push_back({"README.md", render_readme(plan), false});
  files.push_back({kStampFile, stamp(plan, files), false});
  return files;
}

void check_job_folder(const Plan& plan, const std::vector<JobFile>& files) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.path);
  check_out_folder(plan.request.out, paths);
  check_written_paths(plan.request.out, paths);
  check_results(plan);
}

void write_job_folder(const Plan& plan, const std::vector<JobFile>& files) {
  const fs::path dir(plan.request.out);
  check_job_folder(plan, files);
  const std::string old_stamp = read(dir / kStampFile);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("cannot create " + dir.string() + ": " + ec.message());
  // The stamp first: a folder left half-written by a failure is still marked as made here.
  const auto is_stamp = [](const JobFile& f) { return f.path == kStampFile; };
  for (const auto& f : files)
    if (is_stamp(f)) write_file(dir / f.path, f.text, f.executable);
  for (const char* sub : {"sweeps", "results", "logs"}) {
    fs::create_directories(dir / sub, ec);
    if (ec) throw UsageError("cannot create " + (dir / sub).string() + ": " + ec.message());
  }
  // Scripts and step sweeps of an earlier generation that this one does not write.
  std::istringstream old(old_stamp);
  std::set<std::string> now;
  for (const auto& f : files) now.insert(f.path);
  bool listed = false;
  for (std::string line; std::getline(old, line);) {
    const std::string path = line.size() > 2 ? line.substr(2) : "";
    if (listed && line.rfind("  ", 0) == 0 && generated_path(path) && !now.count(path))
      fs::remove(dir / path, ec);
    listed = listed || line == "files:";
  }
  for (const auto& f : files)
    if (!is_stamp(f)) write_file(dir / f.path, f.text, f.executable);
}

std::string summary(const Plan& plan, bool dry_run) {
  std::string out = std::string(dry_run ? "would write " : "wrote ") + plan.request.out + ": " +
                    plan.sweep_path + " on " + plan.system.name + "\n";
  const bool slurm = plan.request.scheduler == Scheduler::slurm;
  for (const auto& s : plan.scripts)
    out += "  " + script_file(plan, s) + ": " + std::to_string(s.nodes) + " node(s), " +
           std::to_string(s.steps.size()) + " step(s), " + std::to_string(s.points()) +
           " point(s), " +
           (slurm ? "time limit " + format_slurm_time(s.time_limit_s)
                  : "about " + format_slurm_time(static_cast<long>(s.seconds()))) +
           "\n";
  if (slurm && plan.time_estimated)
    out += "time limits estimated: " + plan.estimate + "; --time overrides\n";
  for (const auto& n : plan.notes) out += "note: " + n + "\n";
  out += plan.request.scheduler == Scheduler::slurm
             ? "next: bash " + plan.request.out +
                   "/submit.sh (then squeue --me; merged CSV: " + plan.request.out +
                   "/merged.csv)\n"
             : "next: bash " + plan.request.out + "/run-all.sh (merged CSV: " + plan.request.out +
                   "/merged.csv)\n";
  return out;
}

}  // namespace gb::jobs
