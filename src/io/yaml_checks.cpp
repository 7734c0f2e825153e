#include "io/yaml_checks.hpp"

#include <map>

#include "errors/errors.hpp"
#include "io/config_limits.hpp"

namespace gb {
namespace {

void check_unique_keys(const YAML::Node& node, const std::string& source, int depth) {
  if (depth > kMaxConfigDepth) return;  // check_config_limits refused deeper files already
  if (node.IsSequence()) {
    for (const auto& item : node) check_unique_keys(item, source, depth + 1);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> seen;  // key -> its line
  for (const auto& kv : node) {
    if (kv.first.IsScalar()) {
      const YAML::Mark m = kv.first.Mark();
      const auto [it, fresh] = seen.emplace(kv.first.Scalar(), m.line + 1);
      if (!fresh)
        throw ParseError(source, m.line + 1, m.column + 1,
                         kv.first.Scalar() + ": duplicate key (first given at line " +
                             std::to_string(it->second) + "; give each key once)");
    }
    check_unique_keys(kv.second, source, depth + 1);
  }
}

}  // namespace

void check_indentation(const std::string& text, const std::string& source) {
  int line = 1;
  bool at_indent = true;
  int column = 1;
  for (char c : text) {
    if (c == '\n') {
      ++line;
      column = 1;
      at_indent = true;
      continue;
    }
    if (at_indent && c == '\t')
      throw ParseError(source, line, column,
                       "a tab in the indentation: YAML indents with spaces only (replace the tab "
                       "with spaces)");
    if (c != ' ') at_indent = false;
    ++column;
  }
}

YAML::Node load_yaml(const std::string& text, const std::string& source) {
  check_indentation(text, source);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ParseError(source, e.mark.line + 1, e.mark.column + 1, e.msg);
  }
  check_unique_keys(root, source, 0);
  return root;
}

}  // namespace gb
