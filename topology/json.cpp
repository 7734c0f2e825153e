#include "topology/json.hpp"

#include "topology/binding_advice.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/subsets.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo {
namespace {

template <typename T>
nlohmann::json optional_value(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// Per-pair matrix of one field of Link.
template <typename Field>
nlohmann::json matrix(const Topology& topo, Field field) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : topo.links) {
    nlohmann::json cells = nlohmann::json::array();
    for (const Link& link : row) cells.push_back(field(link));
    rows.push_back(std::move(cells));
  }
  return rows;
}

bool p2p_probed(const Topology& topo) {
  for (const auto& row : topo.links)
    for (const Link& link : row)
      if (link.p2p_access) return true;
  return false;
}

nlohmann::json gpus_json(const Topology& topo) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const Gpu& gpu : topo.gpus) {
    gpus.push_back({{"index", gpu.index},
                    {"name", gpu.name},
                    {"pci_bus_id", gpu.pci_bus_id},
                    {"uuid", gpu.uuid},
                    {"cpu_affinity", gpu.cpu_affinity},
                    {"cpus", gpu.cpus},
                    {"numa_affinity", gpu.numa_affinity},
                    {"numa_nodes", gpu.numa_nodes},
                    {"gpu_numa_id", gpu.gpu_numa_id}});
  }
  return gpus;
}

nlohmann::json nics_json(const Topology& topo) {
  nlohmann::json nics = nlohmann::json::array();
  for (const Nic& nic : topo.nics) {
    nlohmann::json path = nlohmann::json::array();
    for (const Link& link : nic.gpu_path) path.push_back(link.printed);
    nics.push_back({{"name", nic.name}, {"label", nic.label}, {"path", std::move(path)}});
  }
  return nics;
}

nlohmann::json binding_json(const Topology& topo) {
  const BindingAdvice advice = binding_advice(topo);
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuBinding& gpu : advice.gpus) {
    gpus.push_back({{"gpu", gpu.gpu},
                    {"cpulist", gpu.cpulist},
                    {"numa_nodes", gpu.numa_nodes},
                    {"numactl", gpu.numactl}});
  }
  return {{"gpus", std::move(gpus)},
          {"srun", advice.srun},
          {"mpirun", advice.mpirun},
          {"note", advice.note}};
}

// null where the CPUs are not known (another machine's nvidia-smi text).
nlohmann::json host_json(const Host& host) {
  if (host.pus == 0) return nullptr;
  nlohmann::json numa = nlohmann::json::array();
  for (const NumaCpus& node : host.numa) numa.push_back({{"index", node.index}, {"cpus", node.cpus}});
  return {{"list", host.cpus}, {"cores", host.cores}, {"pus", host.pus}, {"numa_nodes", numa}};
}

}  // namespace

nlohmann::json to_json(const Topology& topo) {
  nlohmann::json out;
  out["source"] = topo.source;
  out["cpus"] = host_json(topo.host);
  out["gpus"] = gpus_json(topo);
  out["nics"] = nics_json(topo);
  out["nvlink"] = matrix(topo, [](const Link& link) { return nlohmann::json(link.nvlink); });
  out["path"] = matrix(topo, [](const Link& link) { return nlohmann::json(link.printed); });
  if (p2p_probed(topo)) {
    out["p2p"] = {
        {"access", matrix(topo, [](const Link& l) { return optional_value(l.p2p_access); })},
        {"native_atomics",
         matrix(topo, [](const Link& l) { return optional_value(l.p2p_atomics); })},
        {"performance_rank",
         matrix(topo, [](const Link& l) { return optional_value(l.p2p_perf_rank); })}};
  }
  out["nvlink_components"] = nvlink_components(topo);
  out["nvlink_groups"] = nvlink_groups(topo);
  nlohmann::json subsets = nlohmann::json::array();
  for (const SubsetChoice& choice : connected_subsets(topo))
    subsets.push_back({{"size", choice.size}, {"best", choice.best}, {"worst", choice.worst}});
  out["subsets"] = std::move(subsets);
  out["topology_class"] = topology_class(topo);
  out["nvswitch"] = optional_value(topo.nvswitch);
  out["binding"] = binding_json(topo);
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& [name, status] : topo.probes)
    probes.push_back({{"name", name}, {"status", status}});
  out["probes"] = std::move(probes);
  return out;
}

}  // namespace gb::topo
