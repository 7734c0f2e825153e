#include "topology/cpulist.hpp"

#include <algorithm>
#include <charconv>

namespace gb::topo {
namespace {

std::optional<int> parse_id(std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0 || value > kMaxCpuId)
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::vector<int>> parse_cpulist(std::string_view text) {
  std::vector<int> ids;
  if (text.empty() || text == "N/A") return ids;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const auto dash = item.find('-');
    const auto first = parse_id(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_id(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int id = *first; id <= *last; ++id) ids.push_back(id);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    // Many overlapping ranges could still add up to a huge list.
    if (ids.size() > static_cast<std::size_t>(kMaxCpuId)) return std::nullopt;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string format_cpulist(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ids[i]);
    if (j > i) out += '-' + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gb::topo
