#include "topology/gpu_uuid.hpp"

#include <cstdio>

namespace gb::topo {

std::string format_gpu_uuid(std::span<const char, 16> bytes) {
  std::string out = "GPU-";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    char byte[3];
    std::snprintf(byte, sizeof byte, "%02x", static_cast<unsigned char>(bytes[i]));
    out += byte;
    if (i == 3 || i == 5 || i == 7 || i == 9) out += '-';
  }
  return out;
}

}  // namespace gb::topo
