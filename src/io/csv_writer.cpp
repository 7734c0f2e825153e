#include "io/csv_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "io/csv_reader.hpp"
#include "io/row.hpp"

namespace gb {

std::string csv_quote(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::vector<std::vector<std::string>> parse_csv(std::string_view text, const std::string& source) {
  CsvText split = split_csv(text);
  if (split.open_quote_line)
    throw ParseError(source, split.open_quote_line, 0,
                     "quoted field is never closed (expected '\"')");
  std::vector<std::vector<std::string>> records;
  for (CsvRecord& r : split.records) records.push_back(std::move(r.fields));
  if (split.torn) records.push_back(std::move(split.torn->fields));  // no final line break
  return records;
}

CsvWriter::CsvWriter(const std::string& path, Open mode) : path_(path) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  // 'e' (close on exec): isolated children must not inherit the output file.
  file_ = std::fopen(path.c_str(), mode == Open::append ? "ae" : "we");
  if (!file_)
    throw UsageError("cannot write output file '" + path + "': " + std::strerror(errno) +
                     " (expected a writable path for --out)");
  if (mode == Open::fresh) write_fields(Row::columns());
  rows_ = 0;
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::write(const Record& record) {
  write_fields(to_row(record).fields);
  ++rows_;
}

void CsvWriter::write_fields(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csv_quote(fields[i]);
  }
  line += "\r\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw Error("writing '" + path_ + "' failed: " + std::strerror(errno));
  fsync(fileno(file_));
}

}  // namespace gb
