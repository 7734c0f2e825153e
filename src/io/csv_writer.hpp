// RFC 4180 CSV, header first, one row flushed per result: a killed job loses nothing measured.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result_sink.hpp"
#include "io/csv_file.hpp"

namespace gb {

// Quotes a field when it holds a comma, quote, CR or LF (quotes doubled).
std::string csv_quote(std::string_view field);

// Parses RFC 4180 text into records; throws gb::ParseError (source, line) on an unterminated quote.
std::vector<std::vector<std::string>> parse_csv(std::string_view text, const std::string& source);

class CsvWriter : public ResultSink {
 public:
  // fresh: create or truncate, header first; append: add rows to a file whose header was checked
  // (--resume, io/resume_log.hpp).
  using Open = CsvFile::Open;
  // Opens (creating parent directories) and writes the header at once, so an unwritable path
  // fails before anything is measured. Throws gb::UsageError naming the path and the cause.
  explicit CsvWriter(const std::string& path, Open mode = Open::fresh);
  void write(const Record& record) override;
  const std::string& path() const { return file_.path(); }
  long rows_written() const { return rows_; }  // data rows, header not counted

 private:
  CsvFile file_;
  long rows_ = 0;
};

}  // namespace gb
