// Reading CSVs back (--resume, merge) with what parse_csv drops: the line each record starts on,
// where it ends in the file, and whether the last one was cut short by a killed writer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gb {

struct CsvRecord {
  std::vector<std::string> fields;
  int line = 0;         // 1-based line it starts on
  std::size_t end = 0;  // byte offset just past its line terminator
};

struct CsvText {
  std::vector<CsvRecord> records;  // complete records (ended by LF or CRLF), header first
  // The last record when it has no line terminator (a writer killed mid-row, or an unterminated
  // quote at the end of the file); its fields are those read so far, `end` the file size.
  std::optional<CsvRecord> torn;
  // The line of the opening quote when the text ends inside a quoted field, else 0.
  int open_quote_line = 0;
};

CsvText split_csv(std::string_view text);

// The most a CSV or completion log may hold: over a hundred times the largest file a sweep
// writes (about 2 MB for 13,000 rows), and small enough that merge and --resume hold it in memory.
// A device that never ends (/dev/zero) is refused at this bound instead of exhausting memory.
inline constexpr std::size_t kMaxCsvBytes = std::size_t{256} << 20;  // 256 MiB

// The whole file, at most `limit` bytes; throws gb::UsageError naming the file and the cause,
// or the bound when the file holds more.
std::string read_text_file(const std::string& path, std::size_t limit = kMaxCsvBytes);

}  // namespace gb
