// A CSV file written as it is produced: header first, then lines appended in RFC 4180 (CRLF),
// each batch flushed before append() returns, so a killed job keeps what it wrote, and fsynced
// at once when it holds a measurement (io/sync_pacer.hpp).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "io/sync_pacer.hpp"

namespace gb {

class CsvFile {
 public:
  // fresh: create or truncate, header first; append: add lines to a file whose header was checked.
  enum class Open { fresh, append };
  // Opens (creating parent directories). Throws gb::UsageError naming the path, the cause and
  // `option`, the flag that named the path (e.g. "--out").
  CsvFile(const std::string& path, Open mode, const std::vector<std::string>& header,
          const std::string& option);
  ~CsvFile();
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  // Writes the lines (each a list of fields) with one flush, and an fsync when `durable` (else
  // paced, io/sync_pacer.hpp; always when the file closes); throws gb::Error.
  void append(const std::vector<std::vector<std::string>>& lines, bool durable = true);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  SyncPacer sync_;
};

}  // namespace gb
