#include "io/raw_resume.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "errors/errors.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_reader.hpp"
#include "io/raw_writer.hpp"
#include "io/resume_recover.hpp"

namespace gb {
namespace {

using SampleKey = std::tuple<std::string, std::string, std::string, std::string, std::string>;

std::string joined(const std::vector<std::string>& fields) {
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : ",") + f;
  return out;
}

std::string not_this_runs() {
  return ": --resume appends samples only to the raw file of the run it continues (written by "
         "that run's --raw); give that file, or a new --raw";
}

// The byte ranges [begin, end) of `path` kept, copied into a new file that replaces it.
void rewrite_keeping(const std::string& path,
                     const std::vector<std::pair<std::size_t, std::size_t>>& kept) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "' to repair it");
  StagedFile out(path);
  std::string piece;
  for (const auto& [begin, end] : kept) {
    piece.resize(end - begin);
    in.seekg(static_cast<std::streamoff>(begin));
    in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
    if (!in) throw Error("cannot read '" + path + "' to repair it");
    out.write(piece);
  }
  out.commit();
}

}  // namespace

void recover_raw(const std::string& raw_path, const std::vector<DoneEntry>& finished,
                 const std::set<std::string>& runs, std::vector<std::string>& notes) {
  struct stat st {};
  if (stat(raw_path.c_str(), &st) != 0 || st.st_size == 0) return;
  std::set<SampleKey> done;
  for (const auto& e : finished)
    done.emplace(e.run_id, e.key.method, e.key.config, e.key.gpu_ids, e.key.launcher);
  const auto& columns = RawWriter::columns();
  const std::string named = "--raw '" + raw_path + "'";
  // gpubarrier never writes a byte order mark; the reader would drop it and every offset below
  // would be off by its three bytes.
  if (std::ifstream in(raw_path, std::ios::binary); in) {
    char head[3] = {};
    if (in.read(head, 3) && std::string_view(head, 3) == "\xEF\xBB\xBF")
      throw UsageError(named + " starts with a byte-order mark, which gpubarrier never writes" +
                       not_this_runs());
  }

  CsvFileReader reader(raw_path);
  CsvRecord record;
  std::size_t header_end = 0;
  if (reader.next(record)) {
    if (record.fields != columns)
      throw UsageError(named + " is not a raw sample file: its first line is '" +
                       excerpt(joined(record.fields), 120) + "', expected '" + joined(columns) +
                       "'" + not_this_runs());
    header_end = record.end;
  }
  // Kept ranges of bytes (the header first), the samples dropped, and whether a kept sample
  // follows a dropped one (then truncation cannot drop them).
  std::vector<std::pair<std::size_t, std::size_t>> kept{{0, header_end}};
  long dropped = 0;
  bool gap = false;
  std::size_t start = header_end;
  while (header_end > 0 && reader.next(record)) {
    const std::string where = raw_path + ":" + std::to_string(record.line) + ": ";
    if (record.fields.size() != columns.size())
      throw UsageError("--resume: " + where + std::to_string(record.fields.size()) +
                       " fields, expected " + std::to_string(columns.size()) + " (" +
                       joined(columns) + ")" + not_this_runs());
    const auto& f = record.fields;
    if (!runs.count(f[0]))
      throw UsageError("--resume: " + where + "a sample of run '" + f[0] +
                       "', which wrote no row of --out" + not_this_runs());
    if (done.count({f[0], f[1], f[2], f[3], f[4]})) {
      gap = gap || dropped > 0;
      if (kept.back().second == start)
        kept.back().second = record.end;
      else
        kept.emplace_back(start, record.end);
    } else {
      ++dropped;
    }
    start = record.end;
  }
  const bool torn = reader.torn().has_value();
  if (header_end == 0) {
    // Killed while it wrote the header: the file starts afresh.
    if (torn) {
      const auto& f = reader.torn()->fields;
      const bool prefix = f.size() <= columns.size() &&
                          std::equal(f.begin(), f.end(), columns.begin(),
                                     [](auto& a, auto& b) { return b.rfind(a, 0) == 0; });
      if (!prefix)
        throw UsageError(named + " is not a raw sample file: its only line is '" +
                         excerpt(joined(f), 120) + "', expected '" + joined(columns) + "'" +
                         not_this_runs());
    }
    truncate_file(raw_path, 0);
    notes.push_back(raw_path + ": dropped a torn header (a killed run)");
    return;
  }
  if (torn)
    notes.push_back(raw_path + ":" + std::to_string(reader.torn()->line) +
                    ": dropped a torn last line (cut short by a killed run)");
  if (dropped > 0)
    notes.push_back(raw_path + ": dropped " + std::to_string(dropped) +
                    " sample(s) of points without a completion line: their points run again");
  if (!torn && dropped == 0) return;
  if (gap)
    rewrite_keeping(raw_path, kept);
  else
    truncate_file(raw_path, kept.back().second);
}

}  // namespace gb
