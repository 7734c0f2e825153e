// yaml-cpp's parse errors ("end of map not found", "illegal map value") in words that say what
// the file should hold there, for sweep and system files.
#pragma once

#include <string>

namespace gb {

// The message for yaml-cpp's `msg`: what is expected, then yaml-cpp's own words in parentheses;
// a message with no translation is kept as it is.
std::string explain_yaml_error(const std::string& msg);

}  // namespace gb
