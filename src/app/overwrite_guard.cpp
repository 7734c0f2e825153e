#include "app/overwrite_guard.hpp"

#include <filesystem>

#include "errors/errors.hpp"

namespace gb::cli {

void refuse_to_overwrite(const std::string& path, const std::string& flag, bool force,
                         const std::string& continue_hint, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw UsageError(flag + " '" + path + "' is a directory (expected the path of a file, e.g. " +
                     (fs::path(path) / "results.csv").string() + ")");
  const auto bytes = fs::file_size(path, ec);
  if (force || ec || bytes == 0) return;
  throw UsageError(flag + " '" + path + "'" + (what.empty() ? "" : ": " + what) +
                   " already exists and is not empty: " + continue_hint +
                   "replace it with --force, or choose a new file");
}

}  // namespace gb::cli
