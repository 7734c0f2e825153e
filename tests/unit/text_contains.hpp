// Substring tests for the unit tests' assertions on rendered text (scripts, tables, messages).
#pragma once

#include <string>

namespace gb::test {

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gb::test
