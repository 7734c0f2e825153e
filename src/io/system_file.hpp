// System files (configs/systems/*.yaml): what a job generator needs to know about one node type
// and how its cluster runs jobs, and nothing it can derive. The wiring is structural; the GPU
// matrix, NVLink groups, subsets and CPU binding come from topo::topology_from_wiring.
//
//   name: dgx-h100
//   gpus_per_node: 8
//   gpu: {model: H100-SXM5-80GB, compute_capability: "9.0"}
//   numa: {0: "0-55,112-167", 1: "56-111,168-223"}   # NUMA node: its CPUs
//   wiring:
//     nvswitch: {links_per_gpu: 18}     # or nvlink: {2: [0-3, 0-4], 1: [0-1]} (links: GPU pairs)
//     pcie: [0/hb0/sw0, ...]            # per GPU: numa/host-bridge/switch...
//   nics: [{name: mlx5_0, pcie: 0/hb0/sw0}]
//   slurm: {partition: null, gpu_request: gres, exclusive: true, launcher: srun, ...}
//   env: {NCCL_NVLS_ENABLE: "0"}
//
// `probe: true` (the local machine) replaces gpus_per_node, gpu, numa, wiring and nics; a file
// with `alias_of: other` holds only its name and stands for configs/systems/other.yaml.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/system_wiring.hpp"

namespace gb {

enum class GpuRequest { Gres, GpusPerNode };  // --gres=gpu:N or --gpus-per-node=N
enum class Launcher { Srun, Mpirun };

struct SlurmSettings {
  std::optional<std::string> partition;  // placeholder: unset means the site's default
  std::optional<std::string> account;    // placeholder: unset means the user's default
  GpuRequest gpu_request = GpuRequest::Gres;
  bool exclusive = true;  // best/worst GPU subsets need the whole node
  std::optional<int> cpus_per_task;
  Launcher launcher = Launcher::Srun;
  std::string srun_mpi = "pmix";  // srun --mpi=<this>
  std::vector<std::string> modules;
  std::optional<std::string> container_image;  // Pyxis --container-image
};

struct SystemFile {
  std::string name;
  std::string source;                   // the file it was read from
  std::optional<std::string> alias_of;  // set when `name` is an alias of this system
  bool probe = false;                   // the node is probed where the job runs
  int gpus_per_node = 0;                // 0 when probed
  bool fake_gpus = false;               // gres GPUs without devices: CPU-only methods only
  std::optional<int> max_nodes;         // the cluster's size, when it is fixed
  int nvlink_domain_nodes = 1;          // nodes sharing one NVLink fabric (18 on an NVL72)
  std::string gpu_model;
  int cc_major = 0;  // compute capability; 0 when probed
  int cc_minor = 0;
  topo::SystemWiring wiring;
  SlurmSettings slurm;
  std::vector<std::pair<std::string, std::string>> env;  // in file order

  // "90" for compute capability 9.0, as CUDA_ARCH and CMAKE_CUDA_ARCHITECTURES take it; empty
  // when probed (the build on the node finds out).
  std::string cuda_arch() const {
    return cc_major == 0 ? std::string() : std::to_string(cc_major * 10 + cc_minor);
  }
};

// Throws gb::ParseError "file:line:column: key: what was expected" (with the closest known key
// for an unknown one) and gb::UsageError when the file cannot be read. A loaded file is complete:
// its wiring builds a topology, and NCCL_NVLS_ENABLE=0 is in env unless the file sets it.
SystemFile load_system_file(const std::string& path);
// As load_system_file for text in memory; `source` names it in errors. An alias is resolved in
// the folder of `source`.
SystemFile parse_system_text(const std::string& text, const std::string& source);

}  // namespace gb
