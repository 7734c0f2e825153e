#include "topology/system_wiring.hpp"

#include <charconv>

namespace gb::topo {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

std::optional<PciePosition> parse_pcie_position(std::string_view text) {
  const auto parts = split(text, '/');
  if (parts.size() < 2) return std::nullopt;
  PciePosition position;
  const char* end = parts[0].data() + parts[0].size();
  const auto [ptr, ec] = std::from_chars(parts[0].data(), end, position.numa);
  if (ec != std::errc() || ptr != end || position.numa < 0) return std::nullopt;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].empty()) return std::nullopt;
    if (i == 1)
      position.host_bridge = parts[i];
    else
      position.switches.emplace_back(parts[i]);
  }
  return position;
}

std::string to_string(const PciePosition& position) {
  std::string text = std::to_string(position.numa) + "/" + position.host_bridge;
  for (const auto& name : position.switches) text += "/" + name;
  return text;
}

PathType pcie_path(const PciePosition& a, const PciePosition& b) {
  if (a.numa != b.numa) return PathType::SYS;
  if (a.host_bridge != b.host_bridge) return PathType::NODE;
  std::size_t shared = 0;
  while (shared < a.switches.size() && shared < b.switches.size() &&
         a.switches[shared] == b.switches[shared])
    ++shared;
  if (shared == 0) return PathType::PHB;
  // Both directly below the last shared switch: one switch between them.
  if (shared == a.switches.size() && shared == b.switches.size()) return PathType::PIX;
  return PathType::PXB;
}

}  // namespace gb::topo
