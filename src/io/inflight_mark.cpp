#include "io/inflight_mark.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "errors/errors.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_reader.hpp"
#include "io/point_stream.hpp"

namespace gb {

std::string inflight_path(const std::string& csv_path) {
  return csv_path + ".inflight";
}

void write_inflight(const std::string& csv_path, const Record& point) {
  write_file_atomically(inflight_path(csv_path), encode_begin(point) + "\n");
}

void clear_inflight(const std::string& csv_path) {
  const std::string path = inflight_path(csv_path);
  if (std::remove(path.c_str()) != 0 && errno != ENOENT)
    throw Error("removing '" + path + "' failed: " + std::strerror(errno));
}

std::optional<Record> read_inflight(const std::string& csv_path) {
  const std::string path = inflight_path(csv_path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !ec) return std::nullopt;
  // One line of one record: a mark of 1 MiB or more is no mark gpubarrier wrote.
  const std::string text = read_text_file(path, std::size_t{1} << 20);
  const std::string line = text.substr(0, text.find('\n'));
  std::optional<PointMessage> m;
  try {
    m = decode_point_message(line);
  } catch (const std::exception&) {  // the decoder's own words say nothing of the file
  }
  if (!m || m->kind != PointMessage::Kind::begin)
    throw UsageError(path + ":1: expected the point a run started, as gpubarrier writes it: " +
                     "the mark is damaged; remove it (`--resume` then runs that point again) " +
                     "or put back the mark the run left");
  return m->record;
}

}  // namespace gb
