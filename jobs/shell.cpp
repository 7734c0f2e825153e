#include "jobs/shell.hpp"

#include <algorithm>
#include <cctype>

namespace gb::jobs {

std::string shell_quote(const std::string& text) {
  const bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_./:=,@%+-").find(c) != std::string_view::npos;
  });
  if (safe) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_command(const std::vector<std::vector<std::string>>& parts,
                          const std::string& indent) {
  constexpr std::size_t kWidth = 100;
  std::vector<std::string> lines;
  for (const auto& part : parts) {
    if (part.empty()) continue;
    const std::string start = lines.empty() ? "" : indent;
    std::string line = start;
    for (const auto& w : part) {
      if (line.size() > start.size() && line.size() + 1 + w.size() + 2 > kWidth) {
        lines.push_back(line);
        line = start + "  ";
      } else if (line.size() > start.size()) {
        line += " ";
      }
      line += w;
    }
    lines.push_back(line);
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += " \\\n";
    out += lines[i];
  }
  return out;
}

}  // namespace gb::jobs
