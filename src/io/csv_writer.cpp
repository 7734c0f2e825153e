#include "io/csv_writer.hpp"

#include "errors/errors.hpp"
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

CsvWriter::CsvWriter(const std::string& path, Open mode)
    : file_(path, mode, Row::columns(), "--out") {}

void CsvWriter::write(const Record& record) {
  file_.append({to_row(record).fields}, record.figure.status != Status::skipped);
  ++rows_;
}

}  // namespace gb
