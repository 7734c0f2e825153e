#include "topology/path_type.hpp"

#include <array>
#include <charconv>
#include <utility>

namespace gb::topo {
namespace {

// Letter codes, longest first is not needed: none is a prefix of another.
constexpr std::array<std::pair<std::string_view, PathType>, 8> kCodes{{
    {"X", PathType::X},
    {"PIX", PathType::PIX},
    {"PXB", PathType::PXB},
    {"PHB", PathType::PHB},
    {"NODE", PathType::NODE},
    {"SYS", PathType::SYS},
    {"SOC", PathType::SYS},
    {"N/A", PathType::Unknown},
}};

}  // namespace

std::string_view to_string(PathType type) {
  switch (type) {
    case PathType::X:
      return "X";
    case PathType::NV:
      return "NV";
    case PathType::PIX:
      return "PIX";
    case PathType::PXB:
      return "PXB";
    case PathType::PHB:
      return "PHB";
    case PathType::NODE:
      return "NODE";
    case PathType::SYS:
      return "SYS";
    case PathType::Unknown:
      break;
  }
  return "N/A";
}

std::optional<Cell> parse_cell(std::string_view text) {
  for (const auto& [code, type] : kCodes)
    if (text == code) return Cell{type, 0};
  if (text.size() < 3 || text.size() > 5 || text.substr(0, 2) != "NV") return std::nullopt;
  int count = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data() + 2, end, count);
  if (ec != std::errc() || ptr != end || count <= 0) return std::nullopt;
  return Cell{PathType::NV, count};
}

std::size_t glued_cell_length(std::string_view text) {
  for (const auto& [code, type] : kCodes) {
    // A lone "X" glued to something is more likely part of a word than the diagonal.
    if (type == PathType::X || text.size() <= code.size()) continue;
    if (text.substr(0, code.size()) == code) return code.size();
  }
  // "NV12SYS" splits; "NV1848-63" does not, since the digits could belong to either side.
  if (text.size() > 3 && text.substr(0, 2) == "NV" && is_ascii_digit(text[2])) {
    std::size_t end = 2;
    while (end < text.size() && is_ascii_digit(text[end])) ++end;
    if (end < text.size() && !is_ascii_digit(text[end]) && parse_cell(text.substr(0, end)))
      return end;
  }
  return 0;
}

}  // namespace gb::topo
