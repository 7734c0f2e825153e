// Reading CSVs back (--resume, merge) with what parse_csv drops: the line each record starts on,
// where it ends in the file, and whether the last one was cut short by a killed writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
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

// Records one at a time from text that comes in pieces (a file read a chunk at a time), so that
// only one record is held. RFC 4180: a record ends at LF or CRLF, and at a CR before other text
// (a CR at the very end lost the LF of a CRLF: that record is torn).
class CsvRecordReader {
 public:
  // The next piece of the text, empty at its end; a piece stays valid until the next call.
  using Source = std::function<std::string_view()>;
  // A record longer than `limit` bytes throws gb::UsageError naming `name`, its line and the
  // bound (a device that never ends, a quote that is never closed); `kind`, when not empty,
  // says what `name` is ("a character device").
  explicit CsvRecordReader(Source source,
                           std::size_t limit = std::numeric_limits<std::size_t>::max(),
                           std::string name = "", std::string kind = "");

  // The next complete record into `record` (its strings reused); false at the end of the text.
  bool next(CsvRecord& record);
  // Once next() is false: the last record when it had no line terminator, else nothing.
  std::optional<CsvRecord>& torn() { return torn_; }
  int open_quote_line() const { return open_quote_line_; }

 private:
  int peek();  // the next byte without taking it, or -1 at the end of the text
  // Appends to `field` the bytes of this piece that cannot end it or change its state.
  void take_run(std::string& field, bool quoted, std::size_t& bytes, int line, int quote_line);
  [[noreturn]] void too_long(int line, int quote_line) const;

  Source source_;
  std::size_t limit_;
  std::string name_, kind_;
  std::string_view piece_;
  std::size_t at_ = 0;      // in piece_
  std::size_t offset_ = 0;  // in the text
  int line_ = 1;
  std::optional<CsvRecord> torn_;
  int open_quote_line_ = 0;
};

CsvText split_csv(std::string_view text);

// A field or line of a file as a one-line message quotes it: its first `max` bytes, each byte
// that is not printable ASCII written \xHH (a binary file's bytes, a byte order mark), and
// "..." when there is more.
std::string excerpt(std::string_view text, std::size_t max = 40);

// The most a CSV or completion log read whole may hold (--resume): over a hundred times the
// largest file a sweep writes (about 2 MB for 13,000 rows). A device that never ends
// (/dev/zero) is refused at this bound instead of exhausting memory.
inline constexpr std::size_t kMaxCsvBytes = std::size_t{256} << 20;  // 256 MiB
// The most a CSV read record by record may hold (merge): the Python tools' bound, so that a CSV
// they read, merge reads too.
inline constexpr std::size_t kMaxStreamedCsvBytes = std::size_t{1} << 30;  // 1 GiB
// The longest record read record by record, the Python tools' longest line: a gpubarrier row is
// under 1 KB.
inline constexpr std::size_t kMaxCsvRecordBytes = std::size_t{1} << 20;  // 1 MiB

// The whole file, at most `limit` bytes; throws gb::UsageError naming the file and the cause,
// or the bound when the file holds more.
std::string read_text_file(const std::string& path, std::size_t limit = kMaxCsvBytes);

// A CSV file read record by record: at most kMaxStreamedCsvBytes (a regular file larger than
// that is refused before it is read) and records of at most kMaxCsvRecordBytes; a UTF-8 byte
// order mark (a spreadsheet's "CSV UTF-8") is dropped. Throws gb::UsageError naming the file,
// and the line where one applies, in read_text_file's words.
class CsvFileReader {
 public:
  explicit CsvFileReader(const std::string& path);
  ~CsvFileReader();
  CsvFileReader(const CsvFileReader&) = delete;
  CsvFileReader& operator=(const CsvFileReader&) = delete;

  bool next(CsvRecord& record) { return records_.next(record); }
  std::optional<CsvRecord>& torn() { return records_.torn(); }

 private:
  std::string_view read_piece();

  std::string path_;
  int fd_ = -1;
  std::size_t read_ = 0;
  std::vector<char> buffer_;
  CsvRecordReader records_;
};

}  // namespace gb
