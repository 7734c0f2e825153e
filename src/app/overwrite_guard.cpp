#include "app/overwrite_guard.hpp"

#include <filesystem>

#include "errors/errors.hpp"

namespace gb::cli {
namespace {

namespace fs = std::filesystem;

// What an existing path that is no regular file is, or "" (a regular file, or nothing there).
std::string special_kind(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::symlink:
      return "a symbolic link";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::regular:
    case fs::file_type::not_found:
    case fs::file_type::none:
      return "";
    default:
      return "no regular file";
  }
}

// The file a path names, for comparing two paths: an existing file's canonical path (links
// followed), else the absolute path with its existing part resolved.
fs::path identity(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

}  // namespace

void refuse_to_overwrite(const std::string& path, const std::string& flag, bool force,
                         const std::string& continue_hint, const std::string& what) {
  std::error_code ec;
  const std::string named = flag + " '" + path + "'" + (what.empty() ? "" : ": " + what);
  const fs::file_status st = fs::symlink_status(path, ec);
  const std::string kind = special_kind(st);
  if (st.type() == fs::file_type::directory)
    throw UsageError(named + " is a directory (expected the path of a file, e.g. " +
                     (fs::path(path) / "results.csv").string() + ")");
  if (st.type() == fs::file_type::symlink) {
    const fs::path target = fs::read_symlink(path, ec);
    throw UsageError(named + " is a symbolic link" +
                     (ec ? std::string() : " to '" + target.string() + "'") +
                     ", which writing would replace: give the path of the file itself");
  }
  if (!kind.empty())
    throw UsageError(named + " is " + kind +
                     ", not a regular file: gpubarrier writes only regular files (it replaces "
                     "them and keeps files named after them beside them); give a file's path");
  const auto bytes = fs::file_size(path, ec);
  if (force || ec || bytes == 0) return;
  throw UsageError(named + " already exists and is not empty: " + continue_hint +
                   "replace it with --force, or choose a new file");
}

void refuse_same_files(const std::vector<std::pair<std::string, std::string>>& files) {
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      const bool same = fs::equivalent(files[i].second, files[j].second, ec) ||
                        identity(files[i].second) == identity(files[j].second);
      if (same)
        throw UsageError(files[i].first + " '" + files[i].second + "' is the file of " +
                         files[j].first + " '" + files[j].second +
                         "': each output needs a file of its own");
    }
}

}  // namespace gb::cli
