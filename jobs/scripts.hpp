// The scripts of a job folder, rendered from the templates: one batch script per Script of the
// plan (sbatch, or plain bash with --scheduler none), the rank wrapper, and the scripts that
// submit (or run) them all and merge the results.
#pragma once

#include <string>

#include "jobs/plan.hpp"

namespace gb::jobs {

// "<name>.sbatch" under Slurm, "<name>.sh" for plain scripts.
std::string script_file(const Plan& plan, const Script& script);

std::string render_job_script(const Plan& plan, const Script& script);
std::string render_rank_wrapper();
// submit.sh (Slurm) or run-all.sh (plain): every script, then the merge.
std::string render_driver(const Plan& plan);
std::string driver_file(const Plan& plan);
// merge.sbatch (Slurm only).
std::string render_merge_job(const Plan& plan);

// Seconds before the time limit at which Slurm signals the batch shell (--signal=B:USR1@...):
// two minutes, less for short limits. Slurm may signal up to a minute early.
long signal_lead_s(long time_limit_s);

}  // namespace gb::jobs
