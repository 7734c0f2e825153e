#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "errors/errors.hpp"

namespace gb {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw Error(what + " '" + path + "': " + std::strerror(errno));
}

// A staged file's failure names the file it stands for (the one the user knows) and says that
// file is as it was.
[[noreturn]] void fail_staged(const std::string& what, const std::string& path) {
  throw Error(what + " '" + path + "': " + std::strerror(errno) + " (the file is as it was)");
}

// Writes kept in memory before they go to the file together.
constexpr std::size_t kStagedPiece = std::size_t{1} << 20;

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content) {
  StagedFile file(path);
  file.write(content);
  file.commit();
}

StagedFile::StagedFile(const std::string& path) : path_(path) {
  const std::filesystem::path target(path);
  folder_ = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  std::error_code ec;
  for (auto p = folder_; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path())
    made_ = p;
  std::filesystem::create_directories(folder_, ec);
  // Same folder: rename(2) is atomic only within one file system.
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp." + std::to_string(getpid());
  temp_ = (folder_ / name).string();
  fd_ = open(temp_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int err = errno;
    remove_made_folders();
    errno = err;
    fail("cannot create", temp_);
  }
}

StagedFile::StagedFile() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string name = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/gpubarrier.XXXXXX";
  fd_ = mkstemp(name.data());
  if (fd_ < 0) fail("cannot create", name);
  unlink(name.c_str());
}

StagedFile::~StagedFile() {
  if (fd_ < 0) return;
  close(fd_);
  if (temp_.empty()) return;
  unlink(temp_.c_str());
  remove_made_folders();
}

void StagedFile::remove_made_folders() const {
  // Only the folders made for this file, and only while empty.
  std::error_code ec;
  if (!made_.empty())
    for (auto p = folder_; std::filesystem::remove(p, ec) && p != made_; p = p.parent_path()) {
    }
}

void StagedFile::write(std::string_view text) {
  pending_.append(text);
  if (pending_.size() >= kStagedPiece) flush();
}

void StagedFile::flush() {
  std::size_t done = 0;
  while (done < pending_.size()) {
    const ssize_t n = ::write(fd_, pending_.data() + done, pending_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && temp_.empty()) fail("cannot write", "a scratch file");
    if (n < 0) fail_staged("cannot write", path_);
    done += static_cast<std::size_t>(n);
  }
  pending_.clear();
}

void StagedFile::read(std::uint64_t offset, std::size_t size, std::string& text) {
  flush();
  text.resize(size);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n =
        pread(fd_, text.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot read back", temp_.empty() ? "a scratch file" : temp_);
    done += static_cast<std::size_t>(n);
  }
}

void StagedFile::commit() {
  flush();
  const bool synced = fsync(fd_) == 0;
  const int closed = close(fd_);
  fd_ = -1;
  if (closed != 0 || !synced) {
    const int err = errno;
    unlink(temp_.c_str());
    errno = err;
    fail_staged("cannot write", path_);
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    unlink(temp_.c_str());
    errno = err;
    fail_staged("cannot replace", path_);
  }
  // The rename itself is durable only once the folder is.
  if (const int dir = open(folder_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    fsync(dir);
    close(dir);
  }
}

}  // namespace gb
