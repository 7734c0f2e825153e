#include "jobs/text.hpp"

namespace gb::jobs {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string join_ints(const std::vector<int>& items, const std::string& separator) {
  std::vector<std::string> text;
  for (int i : items) text.push_back(std::to_string(i));
  return join(text, separator);
}

}  // namespace gb::jobs
