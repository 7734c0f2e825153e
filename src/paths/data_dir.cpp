#include "paths/data_dir.hpp"

#include <unistd.h>

#include <cstdlib>

namespace gb::paths {
namespace {

namespace fs = std::filesystem;

// A folder with the data files: both configs/ and gpubarrier_tools/ are there.
bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_directory(dir / "configs", ec) &&
         fs::is_directory(dir / "gpubarrier_tools", ec);
}

bool same_folder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return !a.empty() && !b.empty() && fs::equivalent(a, b, ec);
}

}  // namespace

fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : self.parent_path();
}

DataDir data_dir(const fs::path& exe_dir, const fs::path& build_dir, const fs::path& source_dir) {
  const fs::path installed = (exe_dir.parent_path() / kInstalledData).lexically_normal();
  if (same_folder(exe_dir, build_dir) && holds_data(source_dir))
    return {source_dir, "source tree", true};
  if (holds_data(installed)) return {installed, "installed", true};
  if (holds_data(source_dir)) return {source_dir, "source tree", true};
  return {installed, "not found", false};
}

const DataDir& data_dir() {
  static const DataDir dir = data_dir(executable_dir(), GB_BUILD_DIR, GB_SOURCE_DIR);
  return dir;
}

std::string data_dir_line() {
  const DataDir& dir = data_dir();
  if (dir.found) return "data files: " + dir.path.string() + " (" + dir.origin + ")";
  return "data files: not found (expected in " + dir.path.string() +
         "; the Python tools and named configs need them)";
}

fs::path tools_dir() {
  if (const char* d = std::getenv("GPUBARRIER_TOOLS"); d && *d) return d;
  return data_dir().path / "gpubarrier_tools";
}

std::string find_on_path(const std::string& name) {
  const char* value = std::getenv("PATH");
  const std::string path = value ? value : "";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = end > start ? path.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    std::error_code ec;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate, ec)) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace gb::paths
