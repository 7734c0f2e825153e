#include "jobs/template.hpp"

#include <cctype>
#include <set>

#include "errors/errors.hpp"

namespace gb::jobs {
namespace {

bool name_char(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

std::string render_template(std::string_view name, const TemplateValues& values) {
  std::string_view text;
  for (const auto& [file, body] : detail::template_table())
    if (file == name) text = body;
  if (text.empty()) throw Error("no job template '" + std::string(name) + "'");
  std::string out;
  std::set<std::string> used;
  std::size_t i = 0;
  while (i < text.size()) {
    // A placeholder is @NAME@ with NAME in [A-Z0-9_]: bash's "$@" and ${a[@]} are not.
    std::size_t end = i + 1;
    if (text[i] == '@' && end < text.size() &&
        std::isupper(static_cast<unsigned char>(text[end]))) {
      while (end < text.size() && name_char(text[end])) ++end;
      if (end < text.size() && text[end] == '@') {
        const std::string key(text.substr(i + 1, end - i - 1));
        const auto it = values.find(key);
        if (it == values.end())
          throw Error("job template " + std::string(name) + ": no value for @" + key + "@");
        out += it->second;
        used.insert(key);
        i = end + 1;
        continue;
      }
    }
    out += text[i++];
  }
  for (const auto& [key, value] : values)
    if (!used.count(key))
      throw Error("job template " + std::string(name) + " has no @" + key + "@");
  return out;
}

}  // namespace gb::jobs
