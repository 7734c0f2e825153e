#include "app/default_out.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "io/inflight_mark.hpp"
#include "io/resume_log.hpp"

namespace gb::cli {
namespace {

namespace fs = std::filesystem;

enum class Claim { taken, busy, impossible };

// A name is free when neither the CSV nor a file named after it (its completion log, its
// in-flight mark) is there; it is taken by creating the CSV, empty, only if nobody did first.
Claim claim(const std::string& path) {
  std::error_code ec;
  for (const auto& side : {done_log_path(path), inflight_path(path)})
    if (fs::exists(fs::symlink_status(side, ec))) return Claim::busy;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST ? Claim::busy : Claim::impossible;
  close(fd);
  return Claim::taken;
}

std::string pick(const std::string& stem) {
  const std::string first = stem + ".csv";
  std::error_code ec;
  fs::create_directories(fs::path(stem).parent_path(), ec);
  constexpr int kTries = 10000;
  for (int n = 1; !ec && n <= kTries; ++n) {
    const std::string path = n == 1 ? first : stem + "-" + std::to_string(n) + ".csv";
    const Claim c = claim(path);
    if (c == Claim::taken) return path;
    if (c == Claim::impossible) break;  // the CSV's own open says why
  }
  return first;
}

}  // namespace

std::string default_out(const Launch& launch, const std::string& host, const std::string& run_id,
                        const std::string& suffix) {
  const std::string stem = "results/local/" + host + "-" + run_id.substr(0, 16) + suffix;
  return broadcast_string(launch, launch.is_root() ? pick(stem) : std::string());
}

std::optional<std::string> csv_path_of(const std::string& out) {
  if (out == "none") return std::nullopt;
  return out;
}

}  // namespace gb::cli
