// A job folder on disk: the files of a plan, written (or listed for --dry-run), and the summary
// printed to the user. Results already in the folder are kept, so regenerated steps resume, but
// never mixed with results of another system or sweep.
#pragma once

#include <string>
#include <vector>

#include "jobs/plan.hpp"

namespace gb::jobs {

struct JobFile {
  std::string path;  // relative to the job folder
  std::string text;
  bool executable = false;
};

// Every file of the job folder: the scripts, rank.sh, submit.sh or run-all.sh, merge.sbatch,
// sweeps/<step>.yaml, README.md and the stamp that names the system and sweep.
std::vector<JobFile> job_files(const Plan& plan);

// Writes the files under plan.request.out, with empty results/ and logs/ folders. Throws
// gb::UsageError when results/ holds CSVs of another system, sweep or set of steps.
void write_job_folder(const Plan& plan, const std::vector<JobFile>& files);

// What was (or would be) written: scripts, steps, points, time limits and how they were
// estimated, the notes, and how to go on.
std::string summary(const Plan& plan, bool dry_run);

}  // namespace gb::jobs
