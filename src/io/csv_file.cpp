#include "io/csv_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "errors/errors.hpp"
#include "io/csv_writer.hpp"

namespace gb {

CsvFile::CsvFile(const std::string& path, Open mode, const std::vector<std::string>& header,
                 const std::string& option)
    : path_(path) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  // 'e' (close on exec): isolated children must not inherit the output file.
  file_ = std::fopen(path.c_str(), mode == Open::append ? "ae" : "we");
  if (!file_)
    throw UsageError("cannot write output file '" + path + "': " + std::strerror(errno) +
                     " (expected a writable path for " + option + ")");
  if (mode == Open::fresh) append({header});
}

CsvFile::~CsvFile() {
  if (!file_) return;
  if (sync_.dirty()) fsync(fileno(file_));
  std::fclose(file_);
}

void CsvFile::append(const std::vector<std::vector<std::string>>& lines, bool durable) {
  std::string text;
  for (const auto& fields : lines) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) text += ',';
      text += csv_quote(fields[i]);
    }
    text += "\r\n";
  }
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
    throw Error("writing '" + path_ + "' failed: " + std::strerror(errno));
  if (sync_.due(durable)) fsync(fileno(file_));
}

}  // namespace gb
