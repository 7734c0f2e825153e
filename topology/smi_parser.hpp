// Reader for the text of `nvidia-smi topo -m`, as printed by any driver since 2016 and as
// people paste it: tabs or spaces, CRLF, ANSI underlines, indentation, squeezed columns.
#pragma once

#include <string>
#include <string_view>

#include "topology/topology.hpp"

namespace gb::topo {

// Throws gb::ParseError naming the line and what was expected when `text` holds no matrix.
Topology parse_nvidia_smi_topo(std::string_view text, const std::string& source_name);

}  // namespace gb::topo
