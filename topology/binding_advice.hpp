// Where to pin the host thread or rank that drives each GPU: host-side barrier timings move by
// microseconds when a rank runs on the far socket.
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace gb::topo {

struct GpuBinding {
  int gpu = 0;
  std::string cpulist;          // CPUs local to the GPU; empty when unknown
  std::vector<int> numa_nodes;  // NUMA nodes local to the GPU
  std::string numactl;          // a numactl prefix for a process that drives this GPU alone
};

struct BindingAdvice {
  std::vector<GpuBinding> gpus;
  std::string srun;    // srun option binding rank i to the CPUs of GPU i; empty when unknown
  std::string mpirun;  // Open MPI options with the same intent
  std::string note;    // why the advice is partial, when it is
};

// Assumes one rank per GPU with rank i driving GPU i, as gpubarrier's launcher does.
BindingAdvice binding_advice(const Topology& topo);

// The CPU set as a hexadecimal mask ("0xff00"), as srun --cpu-bind=mask_cpu expects.
std::string cpu_mask(const std::vector<int>& cpus);

}  // namespace gb::topo
