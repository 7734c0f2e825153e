#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "errors/errors.hpp"

namespace gb {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw Error(what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content) {
  const std::filesystem::path target(path);
  const std::filesystem::path folder =
      target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  // Same folder: rename(2) is atomic only within one file system.
  const std::string temp =
      (folder / ("." + target.filename().string() + ".tmp." + std::to_string(getpid()))).string();
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", temp);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      unlink(temp.c_str());
      errno = err;
      fail("cannot write", temp);
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = fsync(fd) == 0;
  if (close(fd) != 0 || !synced) {
    unlink(temp.c_str());
    fail("cannot write", temp);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    unlink(temp.c_str());
    fail("cannot replace", path);
  }
  // The rename itself is durable only once the folder is.
  if (const int dir = open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    fsync(dir);
    close(dir);
  }
}

}  // namespace gb
