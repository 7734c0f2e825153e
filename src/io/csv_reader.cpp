#include "io/csv_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "errors/errors.hpp"

namespace gb {

CsvText split_csv(std::string_view text) {
  CsvText out;
  CsvRecord record;
  std::string field;
  bool quoted = false, field_started = false;
  int line = 1, quote_line = 0;
  record.line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && !field_started) {
      quoted = field_started = true;
      quote_line = line;
    } else if (c == ',') {
      record.fields.push_back(std::move(field));
      field.clear();
      field_started = false;
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size())) {
      // A CR is a terminator only with its LF or before other text: a file ending in a bare CR
      // lost the LF of a CRLF, so its last row is torn.
      if (c == '\r' && text[i + 1] == '\n') ++i;
      record.fields.push_back(std::move(field));
      record.end = i + 1;
      out.records.push_back(std::move(record));
      record = CsvRecord{};
      field.clear();
      field_started = false;
      record.line = ++line;
    } else if (c != '\r') {
      field += c;
      field_started = true;
    }
  }
  const std::size_t last_end = out.records.empty() ? 0 : out.records.back().end;
  if (last_end < text.size()) {
    record.fields.push_back(std::move(field));
    record.end = text.size();
    out.torn = std::move(record);
  }
  if (quoted) out.open_quote_line = quote_line;
  return out;
}

std::string read_text_file(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "': " + std::strerror(errno));
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit)
      throw UsageError("'" + path + "' holds more than " + std::to_string(limit >> 20) +
                       " MiB, more than gpubarrier reads from one file (a CSV of its own is a "
                       "few MB): split it, or give the file gpubarrier wrote");
  }
  if (in.bad()) throw UsageError("cannot read '" + path + "': " + std::strerror(errno));
  return text;
}

}  // namespace gb
