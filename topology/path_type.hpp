// The connection codes of `nvidia-smi topo -m` and how close each one is.
#pragma once

#include <optional>
#include <string_view>

namespace gb::topo {

// Declared from closest to farthest so that a larger value is a longer path. SOC, the spelling
// before 2018, reads as SYS.
enum class PathType { X, NV, PIX, PXB, PHB, NODE, SYS, Unknown };

// '0' to '9' only: std::isdigit depends on the locale and takes an int.
inline bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view to_string(PathType type);

struct Cell {
  PathType path = PathType::Unknown;
  int nvlink = 0;
};

// Reads one matrix cell ("X", "NV12", "PIX", "SOC", "N/A"); nullopt when it is no cell code.
std::optional<Cell> parse_cell(std::string_view text);

// Length of the cell code that starts `text` when more text follows it glued on (a squeezed
// column such as "SYS48-63"); 0 when there is none or the split would be ambiguous.
std::size_t glued_cell_length(std::string_view text);

}  // namespace gb::topo
