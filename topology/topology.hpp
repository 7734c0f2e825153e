// The Topology value type: what gpubarrier knows about how the GPUs of one node are wired.
// Probes of this machine and the `nvidia-smi topo -m` parser both produce it, so everything
// derived from it (groups, subsets, class strings) works the same for both.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/path_type.hpp"

namespace gb::topo {

// One node never exposes more GPUs than this, and the clique search keeps GPU sets in a 64-bit
// mask; the parser rejects larger matrices instead of producing something unusable.
inline constexpr int kMaxGpus = 64;

// The connection from one device to another, as one cell of the nvidia-smi matrix.
struct Link {
  int nvlink = 0;                     // bonded NVLinks between the two GPUs; 0 when none
  PathType path = PathType::Unknown;  // PCIe path; NV when only "NV#" was printed
  std::string printed;                // the cell as printed ("NV18", "SOC", "X", "N/A")
  std::optional<bool> p2p_access;     // cudaDeviceCanAccessPeer, when probed
  std::optional<bool> p2p_atomics;    // native atomics over the peer link, when probed
  std::optional<int> p2p_perf_rank;   // CUDA's relative performance rank (0 is best)
};

struct Gpu {
  int index = 0;
  std::string name;
  std::string pci_bus_id;    // "0000:18:00.0", lower case
  std::string uuid;          // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string cpu_affinity;  // cpulist as printed ("0-11,24-35"); empty when unknown
  std::vector<int> cpus;
  std::string numa_affinity;  // as printed ("0", "0,5-11", "N/A")
  std::vector<int> numa_nodes;
  std::string gpu_numa_id;  // the "GPU NUMA ID" column: set on coherent (Grace) systems
};

struct Nic {
  std::string name;            // device name ("mlx5_0"), the NIC Legend resolved
  std::string label;           // the column name as printed ("NIC0" or "mlx5_0")
  std::vector<Link> gpu_path;  // path to each GPU, indexed like Topology::gpus
};

// The node's CPUs as hwloc sees them, whether or not it has GPUs. Probed only: another
// machine's `nvidia-smi topo -m` text does not list them (then pus is 0: not known).
struct NumaCpus {
  int index = 0;     // the OS's node number
  std::string cpus;  // cpulist ("0-27,56-83")
};

struct Host {
  std::string cpus;  // cpulist of every CPU (hardware thread) the process may use
  int cores = 0;
  int pus = 0;  // hardware threads
  std::vector<NumaCpus> numa;
};

struct Topology {
  std::string source;  // where it came from: a file name or "probe of <host>"
  Host host;
  std::vector<Gpu> gpus;
  std::vector<Nic> nics;
  std::vector<std::vector<Link>> links;  // gpus.size() squared; the diagonal is X
  std::optional<bool> nvswitch;          // known only when NVML saw the link ends
  // Probe name -> "ok" or "unavailable: reason", in the order the probes ran.
  std::vector<std::pair<std::string, std::string>> probes;

  int gpu_count() const { return static_cast<int>(gpus.size()); }
  int nvlink(int a, int b) const { return links[a][b].nvlink; }
};

}  // namespace gb::topo
