// Checks every YAML config file (sweep and system files) gets, so that `config check`, `sweep`
// and `jobs` refuse the same mistakes with the same file:line:column: a tab in the indentation
// (YAML indents with spaces; yaml-cpp would only say "illegal block entry") and a key given twice
// in one map (yaml-cpp keeps one silently).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace gb {

// Before yaml-cpp: throws gb::ParseError at the first tab in a line's indentation.
void check_indentation(const std::string& text, const std::string& source);

// Parses `text` (after check_config_limits and check_indentation), turning yaml-cpp's errors into
// gb::ParseError. Refuses, naming the line, an anchor or alias (a few aliases stand for billions
// of nodes), a second document (yaml-cpp would ignore it) and a key given twice in one map.
YAML::Node load_yaml(const std::string& text, const std::string& source);

}  // namespace gb
