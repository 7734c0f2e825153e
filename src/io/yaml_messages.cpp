#include "io/yaml_messages.hpp"

#include <string_view>

namespace gb {
namespace {

struct Explanation {
  std::string_view yaml;  // the start of yaml-cpp's message
  std::string_view expected;
};

// Config files are maps of `key: value`, lists of `- item` and flow lists `[a, b]`.
constexpr Explanation kExplanations[] = {
    {"end of map not found",
     "a map of keys ends here without its next 'key: value': expected each key at the indentation "
     "of the keys above it, or a value quoted when it holds ': ' or ' #'"},
    {"end of map flow not found", "a '{' map is not closed: expected ', key: value' or '}'"},
    {"end of sequence not found",
     "a list ends here without its next '- item': expected each item at the indentation of the "
     "items above it"},
    {"end of sequence flow not found", "a '[' list is not closed: expected ', item' or ']'"},
    {"illegal map value",
     "a ':' where no key can start: expected one 'key: value' a line (quote a value that holds "
     "': '), and a key indented like the keys above it"},
    {"illegal map key", "a '?' key where none can start: expected 'key: value'"},
    {"illegal block entry",
     "a '- ' item where no list can start: expected a list under a key ('key:' then '- item' "
     "indented below it)"},
    {"illegal flow end", "a ']' or '}' that closes nothing: expected it after a '[' or '{'"},
    {"illegal EOF in scalar", "the file ends inside a quoted value: expected its closing quote"},
    {"illegal character in scalar",
     "a character that cannot start or continue a plain value here: expected the value quoted"},
    {"unknown escape character",
     "an unknown '\\' escape in a double-quoted value: expected single quotes, or '\\\\' for a "
     "backslash"},
    {"illegal tab when looking for indentation",
     "a tab in the indentation: expected spaces (YAML indents with spaces only)"},
    {"unknown token", "text that is not YAML here: expected 'key: value', '- item' or a comment"},
    {"invalid character in single-quoted string",
     "a character that cannot stand in a single-quoted value: expected the value in double "
     "quotes"},
};

}  // namespace

std::string explain_yaml_error(const std::string& msg) {
  for (const Explanation& e : kExplanations)
    if (std::string_view(msg).starts_with(e.yaml))
      return std::string(e.expected) + " (YAML: " + msg + ")";
  return msg;
}

}  // namespace gb
