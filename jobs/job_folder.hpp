// A job folder on disk: the files of a plan, written (or listed for --dry-run), and the summary
// printed to the user. Results already in the folder are kept, so regenerated steps resume, but
// never mixed with results of another system or sweep; a folder someone else made is left alone.
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
// sweeps/<step>.yaml, README.md and the stamp that marks the folder as made by gpubarrier jobs
// and names the system and sweep.
std::vector<JobFile> job_files(const Plan& plan);

// Throws gb::UsageError when plan.request.out is a folder gpubarrier jobs did not make and is
// not empty (check_out_folder), or its results/ holds CSVs of another system, sweep or set of
// steps. Reads only: --dry-run refuses what writing would.
void check_job_folder(const Plan& plan, const std::vector<JobFile>& files);

// check_job_folder, then writes the files under plan.request.out, with results/ and logs/
// folders; removes the scripts and step sweeps of an earlier generation that this one does not
// write, never results, logs or the merged CSV.
void write_job_folder(const Plan& plan, const std::vector<JobFile>& files);

// What was (or would be) written: scripts, steps, points, time limits and how they were
// estimated, the notes, and how to go on.
std::string summary(const Plan& plan, bool dry_run);

}  // namespace gb::jobs
