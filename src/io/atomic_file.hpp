// Replacing a file so that a reader (or a kill -9) sees the old content or the new, never a mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace gb {

// Writes `content` to a temporary file in the same folder, fsyncs it, renames it over `path` and
// fsyncs the folder. Throws gb::Error naming the file and the cause.
void write_file_atomically(const std::string& path, std::string_view content);

// A file written piece by piece (and read back) before it takes its place: the pieces go to a
// temporary file beside `path` (its folder made if missing), which commit() fsyncs and renames
// over `path`. Destroyed without commit(), it removes the temporary file and the folders made
// for it: `path` is as it was. Throws gb::Error naming the file and the cause.
class StagedFile {
 public:
  explicit StagedFile(const std::string& path);
  // A scratch file, for text that is written and read back but never kept: in $TMPDIR (else
  // /tmp), unlinked at once; commit() is not for it.
  StagedFile();
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  void write(std::string_view text);
  // `size` bytes from `offset` of what write() wrote, into `text` (its room reused).
  void read(std::uint64_t offset, std::size_t size, std::string& text);
  void commit();

 private:
  void flush();
  void remove_made_folders() const;

  std::string path_, temp_;
  std::filesystem::path folder_, made_;  // made_: the outermost folder made for it, if any
  int fd_ = -1;
  std::string pending_;  // written, not yet in the file
};

}  // namespace gb
