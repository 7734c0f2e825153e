#include "topology/binding_advice.hpp"

#include <algorithm>

#include "topology/cpulist.hpp"

namespace gb::topo {

std::string cpu_mask(const std::vector<int>& cpus) {
  if (cpus.empty()) return "0x0";
  const int top = *std::max_element(cpus.begin(), cpus.end());
  std::vector<int> nibbles(top / 4 + 1, 0);
  for (int cpu : cpus) nibbles[cpu / 4] |= 1 << (cpu % 4);
  std::string hex = "0x";
  for (auto it = nibbles.rbegin(); it != nibbles.rend(); ++it) hex += "0123456789abcdef"[*it];
  return hex;
}

BindingAdvice binding_advice(const Topology& topo) {
  BindingAdvice advice;
  bool all_cpus_known = !topo.gpus.empty();
  for (const Gpu& gpu : topo.gpus) {
    GpuBinding binding;
    binding.gpu = gpu.index;
    binding.cpulist = gpu.cpus.empty() ? std::string() : format_cpulist(gpu.cpus);
    binding.numa_nodes = gpu.numa_nodes;
    if (!gpu.cpus.empty()) {
      binding.numactl = "numactl --physcpubind=" + binding.cpulist;
      if (!gpu.numa_nodes.empty())
        binding.numactl += " --membind=" + format_cpulist(gpu.numa_nodes);
    }
    all_cpus_known = all_cpus_known && !gpu.cpus.empty();
    advice.gpus.push_back(std::move(binding));
  }
  if (!all_cpus_known) {
    advice.note = topo.gpus.empty() ? "no GPUs" : "the CPU affinity of some GPUs is unknown";
    return advice;
  }
  advice.srun = "--cpu-bind=mask_cpu:";
  for (std::size_t i = 0; i < topo.gpus.size(); ++i)
    advice.srun += (i > 0 ? "," : "") + cpu_mask(topo.gpus[i].cpus);

  // --map-by numa places rank i on NUMA node i / g only when the GPUs sit on NUMA nodes 0, 1, ...
  // in order, g GPUs each; otherwise a wrapper has to apply the numactl line of each rank.
  std::vector<int> nodes;
  for (const Gpu& gpu : topo.gpus) {
    if (gpu.numa_nodes.size() != 1) break;
    nodes.push_back(gpu.numa_nodes.front());
  }
  const int per_node = static_cast<int>(std::count(nodes.begin(), nodes.end(), 0));
  bool regular = nodes.size() == topo.gpus.size() && per_node > 0;
  for (std::size_t i = 0; regular && i < nodes.size(); ++i)
    regular = nodes[i] == static_cast<int>(i) / per_node;
  if (regular) {
    advice.mpirun = "--map-by ppr:" + std::to_string(per_node) + ":numa --bind-to numa";
  } else {
    advice.mpirun = "--bind-to none";
    advice.note =
        "the GPUs do not sit on NUMA nodes 0, 1, ... in order; run each rank under its numactl "
        "line";
  }
  return advice;
}

}  // namespace gb::topo
