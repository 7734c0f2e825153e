// Versions and identity of the machine, written into every CSV row so results stay comparable.
#pragma once

#include <string>
#include <vector>

#include "core/launch.hpp"

namespace gb {

// What names one GPU: its CUDA device name and UUID ("GPU-xxxxxxxx-xxxx-...", as nvidia-smi).
struct GpuIdentity {
  std::string model, uuid;
  bool operator==(const GpuIdentity&) const = default;
};

struct Environment {
  std::string host;
  // SLURMD_NODENAME under Slurm (the name Slurm knows the node by, also where two slurmds share
  // one host), else the host name.
  std::string node;
  // Under mpirun/srun: every rank's node, in rank order (set by the session, which gathers them).
  std::vector<std::string> rank_nodes;
  std::string slurm_job_id, slurm_step_id;  // SLURM_JOB_ID, SLURM_STEP_ID; empty outside Slurm
  std::string system = "local";             // machine type (configs/systems), set by --system
  std::string gpu_model;                    // of GPU 0; "" without a GPU
  std::vector<GpuIdentity> gpus;            // every visible GPU, by CUDA ordinal
  // Under mpirun/srun: the GPU each rank drives, in rank order (set by the session, which
  // gathers them; empty identity for a rank without a GPU).
  std::vector<GpuIdentity> rank_gpus;
  std::string nvidia_driver;  // NVIDIA driver version from NVML ("580.159.04"); "" without NVML
  std::string driver;         // CUDA driver API version, e.g. "13.0"
  std::string cuda_runtime;
  std::string nccl;     // "" when built without NCCL
  std::string mpi;      // "none" when built without MPI
  std::string version;  // gpubarrier's own version, as --version prints it
  std::string git_sha;
};

// Reads versions from the libraries actually loaded (not the headers compiled against); MPI's
// from `launch`'s transport.
Environment detect_environment(const Launch& launch);

// Counts visible CUDA devices; on failure returns 0 and sets `reason`: "no NVIDIA driver or GPU
// found: ..." where there is no driver, else CUDA's error (topology/cuda_absence.hpp).
int count_cuda_devices(std::string& reason);

}  // namespace gb
