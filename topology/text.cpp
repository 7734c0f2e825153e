#include "topology/text.hpp"

#include <algorithm>
#include <sstream>

#include "topology/binding_advice.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/subsets.hpp"
#include "topology/topology_class.hpp"

namespace gb::topo {
namespace {

// The one word for what is not known, wherever the text would otherwise say nothing.
constexpr const char* kUnknown = "unknown";

std::string sets(const std::vector<std::vector<int>>& lists) {
  std::string out;
  for (const auto& list : lists) {
    out += out.empty() ? "{" : " {";
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(list[i]);
    }
    out += "}";
  }
  return out;
}

// Labels padded to one width so that the values line up.
std::string label(std::string text) {
  constexpr std::size_t kWidth = 19;
  text += ':';
  return text + std::string(text.size() < kWidth ? kWidth - text.size() : 1, ' ');
}

void write_matrix(std::ostream& out, const Topology& topo) {
  std::vector<std::string> labels;
  for (const Gpu& gpu : topo.gpus) labels.push_back("GPU" + std::to_string(gpu.index));
  for (const Nic& nic : topo.nics) labels.push_back(nic.label);
  std::size_t width = 8;
  for (const auto& label : labels) width = std::max(width, label.size() + 2);
  std::string line;
  const auto cell = [&](const std::string& text) {
    line += text + std::string(width > text.size() ? width - text.size() : 1, ' ');
  };
  const auto end_line = [&] {
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
    line.clear();
  };
  // The cell of any two devices; NIC-to-NIC paths are not kept and stay blank.
  const auto path = [&](std::size_t row, std::size_t column) -> std::string {
    const std::size_t gpus = topo.gpus.size();
    if (row == column) return "X";
    if (row < gpus && column < gpus) return topo.links[row][column].printed;
    if (row < gpus) return topo.nics[column - gpus].gpu_path[row].printed;
    if (column < gpus) return topo.nics[row - gpus].gpu_path[column].printed;
    return "";
  };
  cell("");
  for (const auto& name : labels) cell(name);
  line += "CPU Affinity    NUMA Affinity";
  end_line();
  for (std::size_t r = 0; r < labels.size(); ++r) {
    cell(labels[r]);
    for (std::size_t c = 0; c < labels.size(); ++c) cell(path(r, c));
    if (r < topo.gpus.size()) {
      const Gpu& gpu = topo.gpus[r];
      const std::string cpus = gpu.cpu_affinity.empty() ? kUnknown : gpu.cpu_affinity;
      line += cpus + std::string(cpus.size() < 16 ? 16 - cpus.size() : 1, ' ') +
              (gpu.numa_affinity.empty() ? kUnknown : gpu.numa_affinity);
    }
    end_line();
  }
}

// The node's CPUs and NUMA nodes where the probe saw them (none in another machine's text).
void write_host(std::ostream& out, const Host& host) {
  if (host.pus == 0) return;
  out << label("CPUs") << host.pus << " (" << host.cores << " cores): " << host.cpus << '\n';
  out << label("NUMA nodes");
  if (host.numa.empty()) out << kUnknown;
  for (std::size_t i = 0; i < host.numa.size(); ++i)
    out << (i ? "; " : "") << host.numa[i].index << ": CPUs " << host.numa[i].cpus;
  out << '\n';
}

void write_nics_and_probes(std::ostream& os, const Topology& topo) {
  if (!topo.nics.empty()) {
    os << "\nNICs:";
    for (const Nic& nic : topo.nics)
      os << ' ' << nic.label << (nic.label == nic.name ? "" : "=" + nic.name);
    os << '\n';
  }
  if (!topo.probes.empty()) {
    os << "\nProbes:\n";
    for (const auto& [name, status] : topo.probes) os << "  " << name << ": " << status << '\n';
  }
}

}  // namespace

std::string to_text(const Topology& topo) {
  std::ostringstream os;
  os << label("Source") << (topo.source.empty() ? kUnknown : topo.source) << '\n';
  write_host(os, topo.host);
  if (topo.gpus.empty()) {  // nothing of NVLink, classes or binding to say
    os << label("GPUs") << "no GPU\n";
    write_nics_and_probes(os, topo);
    return os.str();
  }
  os << '\n';
  write_matrix(os, topo);
  os << '\n';
  os << label("Class") << topology_class(topo) << '\n';
  os << label("NVSwitch") << (topo.nvswitch ? (*topo.nvswitch ? "yes" : "no") : kUnknown) << '\n';
  os << label("NVLink components") << sets(nvlink_components(topo)) << '\n';
  os << label("NVLink groups") << sets(nvlink_groups(topo)) << '\n';
  for (const SubsetChoice& choice : connected_subsets(topo)) {
    if (choice.size < 2 || choice.size == topo.gpu_count()) continue;
    os << label("Subsets of " + std::to_string(choice.size)) << "best " << sets({choice.best})
       << ", worst " << sets({choice.worst}) << '\n';
  }
  const BindingAdvice advice = binding_advice(topo);
  for (std::size_t i = 0; i < topo.gpus.size(); ++i) {
    const Gpu& gpu = topo.gpus[i];
    os << "\nGPU" << gpu.index;
    if (!gpu.name.empty()) os << "  " << gpu.name;
    if (!gpu.pci_bus_id.empty()) os << "  " << gpu.pci_bus_id;
    if (!gpu.uuid.empty()) os << "  " << gpu.uuid;
    os << "\n  bind: " << (advice.gpus[i].numactl.empty() ? kUnknown : advice.gpus[i].numactl);
  }
  os << '\n';
  if (!advice.srun.empty()) os << "\nsrun " << advice.srun << "\nmpirun " << advice.mpirun << '\n';
  if (!advice.note.empty()) os << "Note: " << advice.note << '\n';
  write_nics_and_probes(os, topo);
  return os.str();
}

}  // namespace gb::topo
