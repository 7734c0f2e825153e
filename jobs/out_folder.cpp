#include "jobs/out_folder.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "errors/errors.hpp"

namespace gb::jobs {
namespace fs = std::filesystem;
namespace {

// A stamp this generator wrote starts with the system line (job_folder.cpp); a file of that
// name with other text is not taken as proof.
bool has_stamp(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / kStampFile, ec)) return false;
  std::ifstream in(dir / kStampFile, std::ios::binary);
  std::string first(8, '\0');
  in.read(first.data(), static_cast<std::streamsize>(first.size()));
  return in && first == "system: ";
}

std::string listed(std::vector<std::string> names) {
  constexpr std::size_t kShown = 6;
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::size_t i = 0; i < std::min(names.size(), kShown); ++i)
    out += (i > 0 ? ", " : "") + names[i];
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

// What an existing path that is none of the `allowed` types is, or "".
std::string odd_kind(const fs::path& path, fs::file_type allowed) {
  std::error_code ec;
  const auto type = fs::symlink_status(path, ec).type();
  if (type == fs::file_type::not_found || type == allowed) return "";
  switch (type) {
    case fs::file_type::symlink: {
      const auto target = fs::read_symlink(path, ec);
      return "a symbolic link" + (ec ? std::string() : " to '" + target.string() + "'");
    }
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::regular:
      return "a regular file";
    default:
      return "no regular file";
  }
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

void check_out_folder(const std::string& out, const std::vector<std::string>& paths) {
  const fs::path dir(out);
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (status.type() == fs::file_type::not_found) return;
  if (ec) throw UsageError("--out " + out + ": " + ec.message());
  if (status.type() != fs::file_type::directory)
    throw UsageError("--out " + out + " is not a folder; choose a new or empty folder");
  if (fs::is_empty(dir, ec) || has_stamp(dir)) return;
  std::vector<std::string> existing;
  for (const auto& path : paths)
    if (fs::exists(fs::symlink_status(dir / path, ec))) existing.push_back(path);
  if (!existing.empty())
    throw UsageError("--out " + out + ": would overwrite " + listed(existing) +
                     " (a folder gpubarrier jobs did not make); choose a new or empty folder");
  throw UsageError("--out " + out +
                   " is not empty and gpubarrier jobs did not make it; choose a new or empty "
                   "folder");
}

void check_written_paths(const std::string& out, const std::vector<std::string>& paths) {
  const fs::path dir(out);
  for (const auto& path : paths) {
    const fs::path rel(path);
    for (auto folder = rel.parent_path(); !folder.empty(); folder = folder.parent_path())
      if (const auto kind = odd_kind(dir / folder, fs::file_type::directory); !kind.empty())
        throw UsageError("--out " + out + ": " + (dir / folder).string() + " is " + kind +
                         ", not a folder: gpubarrier jobs writes its files only into folders of "
                         "its own; remove it or choose a new --out");
    if (const auto kind = odd_kind(dir / rel, fs::file_type::regular); !kind.empty())
      throw UsageError("--out " + out + ": " + (dir / rel).string() + " is " + kind +
                       ", not a regular file: gpubarrier jobs replaces only regular files (never "
                       "through a link, never into a device or FIFO); remove it or choose a new "
                       "--out");
  }
}

bool generated_path(const std::string& path) {
  const fs::path p(path);
  if (path.empty() || p.is_absolute() || path.find("..") != std::string::npos) return false;
  const std::string folder = p.parent_path().string();
  const std::string name = p.filename().string();
  if (folder.empty())
    return name == "README.md" || ends_with(name, ".sbatch") || ends_with(name, ".sh");
  return folder == "sweeps" && ends_with(name, ".yaml");
}

}  // namespace gb::jobs
