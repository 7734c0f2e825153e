// The requests refused before any planning, each with the reason: node and GPU counts the system
// does not have, unknown subsets, Slurm options for plain scripts, values a #SBATCH line cannot
// hold.
#pragma once

#include "io/system_file.hpp"
#include "jobs/request.hpp"

namespace gb::jobs {

// `gpus` is the node's GPU count (0 when a probe found none); `slots` the most GPUs (or ranks,
// without GPUs) a step may use per node. Throws gb::UsageError.
void check_request(const JobRequest& request, const SystemFile& system, int gpus, int slots);

}  // namespace gb::jobs
