// Shared helpers of the system catalogue tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/system_file.hpp"

namespace gb::test {

inline const std::filesystem::path kSystemsDir = GB_SYSTEMS_DIR;
inline const std::filesystem::path kCaptureDir = GB_TOPO_FIXTURES;

inline SystemFile load_system(const std::string& name) {
  return load_system_file((kSystemsDir / (name + ".yaml")).string());
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using Sets = std::vector<std::vector<int>>;

}  // namespace gb::test
