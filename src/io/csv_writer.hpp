// RFC 4180 CSV, header first, one row flushed per result: a killed job loses nothing measured.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/result_sink.hpp"

namespace gb {

// Quotes a field when it holds a comma, quote, CR or LF (quotes doubled).
std::string csv_quote(std::string_view field);

// Parses RFC 4180 text into records; throws gb::ParseError (source, line) on an unterminated quote.
std::vector<std::vector<std::string>> parse_csv(std::string_view text, const std::string& source);

class CsvWriter : public ResultSink {
 public:
  // fresh: create or truncate, header first; append: add rows to a file whose header was checked
  // (--resume, io/resume_log.hpp).
  enum class Open { fresh, append };
  // Opens (creating parent directories) and writes the header at once, so an unwritable path
  // fails before anything is measured. Throws gb::UsageError naming the path and the cause.
  explicit CsvWriter(const std::string& path, Open mode = Open::fresh);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  void write(const Record& record) override;
  const std::string& path() const { return path_; }
  long rows_written() const { return rows_; }  // data rows, header not counted

 private:
  void write_fields(const std::vector<std::string>& fields);
  std::string path_;
  std::FILE* file_ = nullptr;
  long rows_ = 0;
};

}  // namespace gb
