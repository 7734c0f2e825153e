#include "jobs/request_checks.hpp"

#include <algorithm>

#include "errors/errors.hpp"

namespace gb::jobs {
namespace {

void check_nodes(const JobRequest& req, const SystemFile& sys) {
  for (const int n : req.nodes) {
    if (n < 1) throw UsageError("--nodes " + std::to_string(n) + ": expected 1 or more nodes");
    if (sys.max_nodes && n > *sys.max_nodes)
      throw UsageError("--nodes " + std::to_string(n) + ": " + sys.name + " has " +
                       std::to_string(*sys.max_nodes) + " nodes");
    if (n > 1 && req.scheduler == Scheduler::none)
      throw UsageError("--nodes " + std::to_string(n) +
                       ": --scheduler none writes scripts for this one machine; several nodes "
                       "need --scheduler slurm");
  }
}

void check_gpus(const JobRequest& req, const SystemFile& sys, int gpus, int slots) {
  for (const int k : req.gpu_counts) {
    if (k < 1) throw UsageError("--gpu-counts " + std::to_string(k) + ": expected 1 or more GPUs");
    if (k <= slots) continue;
    if (gpus == 0)
      throw UsageError("--gpu-counts " + std::to_string(k) + ": " + sys.name +
                       " has no GPU here (the probe found none), so only host methods run, with "
                       "up to " +
                       std::to_string(slots) + " ranks");
    throw UsageError("--gpu-counts " + std::to_string(k) + ": more GPUs than " + sys.name +
                     " has (" + std::to_string(gpus) + " per node)");
  }
}

void check_subsets(const JobRequest& req, const SystemFile& sys, int gpus) {
  if (!req.subsets.empty() && gpus == 0)
    throw UsageError("--subsets " + std::string(name_of(req.subsets.front())) + ": " + sys.name +
                     " has no GPU here (the probe found none), so there is no subset to take");
}

// #SBATCH lines are split at white space, and the values also land in shell code.
void check_value(const std::string& flag, const std::string& value) {
  const bool bad = value.empty() || std::any_of(value.begin(), value.end(), [](char c) {
                     return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'';
                   });
  if (bad)
    throw UsageError(flag + " '" + value +
                     "': expected a value without spaces or quotes (it goes into #SBATCH lines)");
}

void check_slurm_only(const JobRequest& req, const SystemFile& sys) {
  if (req.time_limit_s && req.scheduler == Scheduler::none)
    throw UsageError(
        "--time applies to Slurm jobs; --scheduler none writes plain scripts, which "
        "run until they are done");
  const std::optional<std::string>* values[] = {&req.partition, &req.account, &req.container_image};
  const char* flags[] = {"--partition", "--account", "--container-image"};
  for (int i = 0; i < 3; ++i) {
    if (!*values[i]) continue;
    if (req.scheduler == Scheduler::none)
      throw UsageError(std::string(flags[i]) +
                       " applies to Slurm jobs; --scheduler none writes "
                       "plain scripts for this machine");
    check_value(flags[i], **values[i]);
  }
  const bool container = req.container_image || sys.slurm.container_image;
  if (container && req.scheduler == Scheduler::slurm && sys.slurm.launcher == Launcher::Mpirun)
    throw UsageError("a container image (Pyxis) runs through srun, but " + sys.name +
                     " launches ranks with mpirun (slurm.launcher in " + sys.source + ")");
  if (req.scheduler == Scheduler::slurm) check_value("--out", req.out);
}

}  // namespace

void check_request(const JobRequest& req, const SystemFile& sys, int gpus, int slots) {
  if (req.out.empty()) throw UsageError("--out: expected the folder for the job scripts");
  if (req.nodes.empty()) throw UsageError("--nodes: expected node counts such as 1,2");
  check_nodes(req, sys);
  check_gpus(req, sys, gpus, slots);
  check_subsets(req, sys, gpus);
  check_slurm_only(req, sys);
}

}  // namespace gb::jobs
