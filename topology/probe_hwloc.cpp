#include <hwloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "topology/cpulist.hpp"
#include "topology/probes.hpp"

namespace gb::topo::detail {
namespace {

using TopologyHandle = std::unique_ptr<hwloc_topology, decltype(&hwloc_topology_destroy)>;

std::string bitmap_list(hwloc_const_bitmap_t bitmap) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0) return {};
  std::string out(text);
  std::free(text);
  return out;
}

hwloc_obj_t find_pci(hwloc_topology_t topology, const std::string& bus_id) {
  unsigned domain = 0, bus = 0, dev = 0, func = 0;
  if (std::sscanf(bus_id.c_str(), "%x:%x:%x.%x", &domain, &bus, &dev, &func) != 4) return nullptr;
  return hwloc_get_pcidev_by_busid(topology, domain, bus, dev, func);
}

bool is_host_bridge(hwloc_obj_t obj) {
  return obj->type == HWLOC_OBJ_BRIDGE && obj->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST;
}

// nvidia-smi's path classes from where the two devices' ancestries meet. hwloc's own common
// ancestor helper compares depths, which I/O objects do not have, so the walk is done here.
PathType pci_path(hwloc_topology_t topology, hwloc_obj_t a, hwloc_obj_t b) {
  std::vector<hwloc_obj_t> above_a;
  for (hwloc_obj_t obj = a; obj; obj = obj->parent) above_a.push_back(obj);
  int bridges_from_b = 0;
  hwloc_obj_t common = b;
  for (; common; common = common->parent) {
    if (std::find(above_a.begin(), above_a.end(), common) != above_a.end()) break;
    if (common->type == HWLOC_OBJ_BRIDGE) ++bridges_from_b;
  }
  if (!common) return PathType::Unknown;
  if (common->type == HWLOC_OBJ_BRIDGE) {
    if (is_host_bridge(common)) return PathType::PHB;
    int bridges_from_a = 0;
    for (hwloc_obj_t obj = a; obj != common; obj = obj->parent)
      if (obj->type == HWLOC_OBJ_BRIDGE) ++bridges_from_a;
    return bridges_from_a + bridges_from_b == 0 ? PathType::PIX : PathType::PXB;
  }
  if (common->type == HWLOC_OBJ_PCI_DEVICE) return PathType::PIX;
  // Under different host bridges: within one NUMA node or across the SMP interconnect.
  const hwloc_obj_t local_a = hwloc_get_non_io_ancestor_obj(topology, a);
  const hwloc_obj_t local_b = hwloc_get_non_io_ancestor_obj(topology, b);
  return hwloc_bitmap_isequal(local_a->nodeset, local_b->nodeset) ? PathType::NODE : PathType::SYS;
}

void fill_gpu_locality(hwloc_topology_t topology, Topology& topo,
                       std::vector<hwloc_obj_t>& gpu_objects) {
  for (Gpu& gpu : topo.gpus) {
    const hwloc_obj_t pci = find_pci(topology, gpu.pci_bus_id);
    gpu_objects.push_back(pci);
    if (!pci) continue;
    const hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topology, pci);
    gpu.cpu_affinity = bitmap_list(local->cpuset);
    gpu.cpus = parse_cpulist(gpu.cpu_affinity).value_or(std::vector<int>{});
    gpu.numa_affinity = bitmap_list(local->nodeset);
    gpu.numa_nodes = parse_cpulist(gpu.numa_affinity).value_or(std::vector<int>{});
  }
  for (int a = 0; a < topo.gpu_count(); ++a) {
    for (int b = 0; b < topo.gpu_count(); ++b) {
      Link& link = topo.links[a][b];
      if (a != b && link.path == PathType::Unknown && gpu_objects[a] && gpu_objects[b])
        link.path = pci_path(topology, gpu_objects[a], gpu_objects[b]);
    }
  }
}

// RDMA devices, the NICs nvidia-smi lists, in the order hwloc finds them.
void fill_nics(hwloc_topology_t topology, Topology& topo,
               const std::vector<hwloc_obj_t>& gpu_objects) {
  for (hwloc_obj_t osdev = hwloc_get_next_osdev(topology, nullptr); osdev;
       osdev = hwloc_get_next_osdev(topology, osdev)) {
    if (osdev->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS || !osdev->name) continue;
    Nic nic;
    nic.name = osdev->name;
    nic.label = "NIC" + std::to_string(topo.nics.size());
    for (hwloc_obj_t gpu : gpu_objects) {
      Link link;
      if (gpu) link.path = pci_path(topology, gpu, osdev);
      nic.gpu_path.push_back(std::move(link));
    }
    topo.nics.push_back(std::move(nic));
  }
}

// The CPUs this process may use (hwloc's default restricts to them), their cores and NUMA nodes.
void fill_host(hwloc_topology_t topology, Topology& topo) {
  const hwloc_obj_t machine = hwloc_get_root_obj(topology);
  topo.host.cpus = bitmap_list(machine->cpuset);
  topo.host.cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
  topo.host.pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr); node;
       node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node))
    topo.host.numa.push_back({static_cast<int>(node->os_index), bitmap_list(node->cpuset)});
}

}  // namespace

void probe_hwloc(Topology& topo) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    topo.probes.emplace_back("hwloc", "unavailable: hwloc_topology_init failed");
    return;
  }
  TopologyHandle topology(raw, &hwloc_topology_destroy);
  // PCI devices and OS devices are filtered out by default; GPUs and NICs are among those
  // hwloc considers important.
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(raw) != 0) {
    topo.probes.emplace_back("hwloc", "unavailable: hwloc_topology_load failed");
    return;
  }
  fill_host(raw, topo);
  std::vector<hwloc_obj_t> gpu_objects;
  fill_gpu_locality(raw, topo, gpu_objects);
  fill_nics(raw, topo, gpu_objects);
  std::string missing;
  for (std::size_t g = 0; g < gpu_objects.size(); ++g)
    if (!gpu_objects[g]) missing += " GPU" + std::to_string(g);
  if (missing.empty())
    topo.probes.emplace_back("hwloc", "ok");
  else
    topo.probes.emplace_back("hwloc", "ok, but no PCI device found for" + missing);
}

}  // namespace gb::topo::detail
