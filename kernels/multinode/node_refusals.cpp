#include "multinode/detail/node_refusals.hpp"

#include <cuda_runtime.h>

#include <map>

#include "topology/fabric.hpp"

namespace gb::mg {

std::string fabric_refusal(const RunContext& ctx) {
  if (ctx.launch.nodes <= 1 || ctx.launch.simulated_nodes) return {};
  return fabric_problem(ctx);
}

std::string fabric_problem(const RunContext& ctx) {
  if (ctx.gpus.empty()) return {};
  static std::map<int, std::string> seen;  // the fabric does not change during a run
  const int device = ctx.gpus.front();
  if (const auto it = seen.find(device); it != seen.end()) return it->second;
  char bus[32] = {};
  std::string why;
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess)
    why = "cannot tell whether the NVLink domain spans nodes (MNNVL): no PCI bus id for GPU " +
          std::to_string(device);
  else
    why = topo::node_grouping_problem(topo::probe_fabric(bus));
  return seen[device] = why;
}

}  // namespace gb::mg
