#include "topology/from_wiring.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "errors/errors.hpp"
#include "topology/cpulist.hpp"

namespace gb::topo {
namespace {

const NumaNode* find_numa(const SystemWiring& wiring, int id) {
  for (const NumaNode& node : wiring.numa_nodes)
    if (node.id == id) return &node;
  return nullptr;
}

std::optional<std::string> nvlink_problem(const SystemWiring& wiring) {
  const int n = static_cast<int>(wiring.gpus.size());
  if (wiring.nvswitch_links && !wiring.nvlink.empty())
    return "both an NVSwitch and direct NVLinks: a node has one or the other";
  if (wiring.nvswitch_links && *wiring.nvswitch_links < 1)
    return "an NVSwitch needs at least one link per GPU";
  std::set<std::pair<int, int>> seen;
  for (const NvlinkEdge& edge : wiring.nvlink) {
    const std::string name =
        "NVLink " + std::to_string(edge.a) + "-" + std::to_string(edge.b) + " ";
    if (edge.a < 0 || edge.b < 0 || edge.a >= n || edge.b >= n)
      return name + "names a GPU outside 0-" + std::to_string(n - 1);
    if (edge.a == edge.b) return name + "joins a GPU to itself";
    if (edge.links < 1) return name + "has no links";
    if (!seen.insert(std::minmax(edge.a, edge.b)).second) return name + "is listed twice";
  }
  return std::nullopt;
}

std::optional<std::string> placement_problem(const SystemWiring& wiring) {
  for (std::size_t i = 0; i < wiring.gpus.size(); ++i) {
    const NumaNode* node = find_numa(wiring, wiring.gpus[i].numa);
    const std::string gpu = "GPU " + std::to_string(i) + " ";
    if (node == nullptr)
      return gpu + "sits on NUMA node " + std::to_string(wiring.gpus[i].numa) +
             ", which is not listed";
    if (node->cpus.empty()) return gpu + "sits on a NUMA node without CPUs";
  }
  std::set<std::string> names;
  for (const WiredNic& nic : wiring.nics) {
    if (find_numa(wiring, nic.pcie.numa) == nullptr)
      return "NIC " + nic.name + " sits on NUMA node " + std::to_string(nic.pcie.numa) +
             ", which is not listed";
    if (!names.insert(nic.name).second) return "NIC " + nic.name + " is listed twice";
  }
  return std::nullopt;
}

std::string printed(const Link& link) {
  if (link.path == PathType::X) return "X";
  if (link.nvlink > 0) return "NV" + std::to_string(link.nvlink);
  return std::string(to_string(link.path));
}

}  // namespace

std::optional<std::string> wiring_problem(const SystemWiring& wiring) {
  const int n = static_cast<int>(wiring.gpus.size());
  if (n < 1 || n > kMaxGpus)
    return std::to_string(n) + " GPUs: expected 1 to " + std::to_string(kMaxGpus);
  if (auto problem = nvlink_problem(wiring)) return problem;
  return placement_problem(wiring);
}

Topology topology_from_wiring(const SystemWiring& wiring, const std::string& source) {
  if (auto problem = wiring_problem(wiring)) throw UsageError(source + ": " + *problem);
  Topology topo;
  topo.source = source;
  const int n = static_cast<int>(wiring.gpus.size());
  for (int i = 0; i < n; ++i) {
    const NumaNode& node = *find_numa(wiring, wiring.gpus[i].numa);
    Gpu gpu;
    gpu.index = i;
    gpu.name = wiring.gpu_model;
    gpu.cpus = node.cpus;
    gpu.cpu_affinity = format_cpulist(node.cpus);
    gpu.numa_nodes = {node.id};
    gpu.numa_affinity = std::to_string(node.id);
    topo.gpus.push_back(std::move(gpu));
  }

  topo.links.assign(n, std::vector<Link>(n));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      topo.links[a][b].path = a == b ? PathType::X : pcie_path(wiring.gpus[a], wiring.gpus[b]);
  topo.nvswitch = wiring.nvswitch_links.has_value();
  for (int a = 0; wiring.nvswitch_links && a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) topo.links[a][b].nvlink = *wiring.nvswitch_links;
  for (const NvlinkEdge& edge : wiring.nvlink) {
    topo.links[edge.a][edge.b].nvlink = edge.links;
    topo.links[edge.b][edge.a].nvlink = edge.links;
  }
  for (auto& row : topo.links)
    for (Link& link : row) link.printed = printed(link);

  for (const WiredNic& wired : wiring.nics) {
    Nic nic;
    nic.name = wired.name;
    nic.label = wired.name;
    for (const PciePosition& gpu : wiring.gpus) {
      Link link;
      link.path = pcie_path(wired.pcie, gpu);
      link.printed = std::string(to_string(link.path));
      nic.gpu_path.push_back(std::move(link));
    }
    topo.nics.push_back(std::move(nic));
  }
  return topo;
}

}  // namespace gb::topo
