#include "topology/probe.hpp"

#include <unistd.h>

#include <array>
#include <cctype>

#include "topology/probes.hpp"

namespace gb::topo {
namespace detail {

std::string normalize_bus_id(const std::string& bus_id) {
  std::string out;
  for (char c : bus_id) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // NVML pads the domain to eight digits, CUDA and hwloc print four.
  const auto colon = out.find(':');
  if (colon != std::string::npos && colon > 4 && out.find(':', colon + 1) != std::string::npos)
    out.erase(0, colon - 4);
  return out;
}

}  // namespace detail

Topology probe_local() {
  Topology topo;
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  topo.source = std::string("probe of ") + host.data();
  detail::probe_cuda(topo);
  detail::probe_nvml(topo);
  detail::probe_hwloc(topo);
  // What nvidia-smi would print in each cell, from whatever the probes found.
  for (auto& row : topo.links) {
    for (Link& link : row) {
      if (link.path == PathType::X)
        link.printed = "X";
      else if (link.nvlink > 0)
        link.printed = "NV" + std::to_string(link.nvlink);
      else
        link.printed = std::string(to_string(link.path));
    }
  }
  for (Nic& nic : topo.nics)
    for (Link& link : nic.gpu_path) link.printed = std::string(to_string(link.path));
  return topo;
}

}  // namespace gb::topo
