// Reader for the text of `nvidia-smi topo -m`, as printed by any driver since 2016 and as
// people paste it: tabs or spaces, CRLF, ANSI underlines, indentation, squeezed columns.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "topology/topology.hpp"

namespace gb::topo {

// The most text the parser takes, as for config files: a real output is a few KiB (18 NICs and
// 8 GPUs: 7 KiB), and the parser holds several copies of what it reads.
inline constexpr std::size_t kMaxSmiBytes = std::size_t{1} << 20;  // 1 MiB

// Throws gb::ParseError naming the line and what was expected when `text` holds no matrix, and
// when it is over kMaxSmiBytes or binary (check_text_input). Messages quote no raw bytes.
Topology parse_nvidia_smi_topo(std::string_view text, const std::string& source_name);

}  // namespace gb::topo
