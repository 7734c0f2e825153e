#include "errors/errors.hpp"

#include <unistd.h>

#include <array>

namespace gb {
namespace {
int g_rank = -1;
int g_size = 0;

std::string host_name() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0) return "unknown-host";
  return buf.data();
}
}  // namespace

ParseError::ParseError(const std::string& source, int line, int column, const std::string& what)
    : UsageError(source + ":" + std::to_string(line) +
                 (column > 0 ? ":" + std::to_string(column) : std::string()) + ": " + what),
      source_(source),
      line_(line),
      column_(column) {}

ApiError::ApiError(const std::string& api, const std::string& call, const std::string& detail,
                   const char* file, int line)
    : Error(api + " error on " + process_label() + " at " + file + ":" + std::to_string(line) +
            ": " + call + " -> " + detail) {}

void set_process_rank(int rank, int size) {
  g_rank = rank;
  g_size = size;
}

std::string process_label() {
  std::string label = host_name();
  if (g_rank >= 0 && g_size > 1)
    label += " rank " + std::to_string(g_rank) + "/" + std::to_string(g_size);
  return label;
}

}  // namespace gb
