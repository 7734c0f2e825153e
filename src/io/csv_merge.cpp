#include "io/csv_merge.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "errors/errors.hpp"
#include "io/csv_reader.hpp"
#include "io/csv_writer.hpp"
#include "io/row.hpp"

namespace gb {
namespace {

std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// Where, in the order of Row::columns(), the columns are that say which figure a row is: a run
// measures each at most once.
const std::vector<std::size_t>& identity_columns() {
  static const std::vector<std::size_t> at = [] {
    std::vector<std::size_t> cols;
    for (const char* c : {"run_id", "method", "config", "gpu_ids", "launcher", "ranks", "nodes",
                          "technique", "metric", "unit", "status"})
      cols.push_back(index_of(Row::columns(), c));
    return cols;
  }();
  return at;
}

// The figure a row (in the order of Row::columns()) is, into `key`.
void figure_of(const std::vector<std::string>& row, std::string& key) {
  key.clear();
  for (std::size_t at : identity_columns()) (key += row[at]) += '\x1f';
}

// A figure kept: where its line is in the output, and where it was read (file:line).
struct KeptFigure {
  std::uint64_t offset;
  std::uint32_t size;
  std::uint32_t file;
  int line;
};

// One input's header: for each current column, where the file has it (npos: it does not).
struct FileColumns {
  std::vector<std::string> header;
  std::vector<std::size_t> map;
  std::size_t version_at = 0;
};

class Merger {
 public:
  Merger(const std::vector<std::string>& paths, MergeOutput& out, const MergedRowFn& on_row,
         const FigureHashFn& hash)
      : paths_(paths), out_(out), on_row_(on_row), hash_(hash) {
    append_csv_line(line_, Row::columns());
    write_line();
  }

  void add_file(std::uint32_t file) {
    const std::string& path = paths_[file];
    CsvFileReader reader(path);
    CsvRecord record;
    if (!reader.next(record)) {
      if (reader.torn()) refuse_torn(path, reader.torn()->line);
      refuse(path, 1, "empty file, expected a gpubarrier CSV header");
    }
    const FileColumns columns = column_map(path, std::move(record.fields));
    while (reader.next(record)) add_row(file, columns, record);
    if (reader.torn()) refuse_torn(path, reader.torn()->line);
    ++result_.files;
  }

  MergeResult take() { return std::move(result_); }

 private:
  [[noreturn]] static void refuse(const std::string& path, int line, const std::string& what) {
    throw UsageError("merge: " + path + ":" + std::to_string(line) + ": " + what);
  }

  [[noreturn]] static void refuse_torn(const std::string& path, int line) {
    refuse(path, line,
           "the last row is torn (no line end): its writer was killed mid-row or is still "
           "writing; `gpubarrier run|sweep --resume --out " +
               path + "` repairs a file that has its .done log");
  }

  static FileColumns column_map(const std::string& path, std::vector<std::string> header) {
    const auto& cols = Row::columns();
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string col = "column " + std::to_string(i + 1) + " '" + excerpt(header[i]) + "'";
      if (index_of(cols, header[i]) == cols.size())
        refuse(path, 1,
               col + " is not a column of any gpubarrier schema (v1..v" +
                   std::to_string(kSchemaVersion) + "; results/SCHEMA.md)");
      if (index_of(header, header[i]) != i) refuse(path, 1, col + " appears twice");
    }
    FileColumns out;
    out.version_at = index_of(header, "schema_version");
    if (out.version_at == header.size())
      refuse(path, 1, "missing column 'schema_version' (not a gpubarrier CSV?)");
    for (const auto& c : cols) {
      const std::size_t at = index_of(header, c);
      out.map.push_back(at == header.size() ? std::string::npos : at);
    }
    out.header = std::move(header);
    return out;
  }

  // The first column that schema `version` requires and the file lacks ("": none), or nothing
  // when `version` is no schema version.
  static std::optional<std::string> missing_column(const FileColumns& columns, int version) {
    const auto required = Row::columns_of_version(version);
    if (required.empty()) return std::nullopt;
    for (const auto& c : required)
      if (index_of(columns.header, c) == columns.header.size()) return c;
    return std::string();
  }

  void add_row(std::uint32_t file, const FileColumns& columns, CsvRecord& record) {
    const std::string& path = paths_[file];
    auto& f = record.fields;
    if (f.size() != columns.header.size())
      refuse(path, record.line,
             std::to_string(f.size()) + " fields, the header has " +
                 std::to_string(columns.header.size()) + " (a torn or hand-edited row)");
    const std::string& v = f[columns.version_at];
    int version = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), version);
    auto known = missing_.find({file, version});
    if (ec == std::errc() && end == v.data() + v.size() && known == missing_.end())
      known = missing_.emplace(std::pair{file, version}, missing_column(columns, version)).first;
    if (ec != std::errc() || end != v.data() + v.size() || !known->second)
      refuse(path, record.line,
             "column schema_version: '" + excerpt(v) + "' is not a known schema version (1.." +
                 std::to_string(kSchemaVersion) + ")");
    if (!known->second->empty())
      refuse(path, 1,
             "missing column '" + *known->second + "', which schema v" + v + " requires (line " +
                 std::to_string(record.line) + " is a v" + v + " row)");
    if (version < kSchemaVersion) ++result_.upgraded;
    // Each of the file's columns maps to one column of the row: its field is swapped in, and the
    // record's strings keep their room for the next row.
    row_.resize(columns.map.size());
    for (std::size_t i = 0; i < columns.map.size(); ++i) {
      if (columns.map[i] == std::string::npos)
        row_[i].clear();
      else
        row_[i].swap(f[columns.map[i]]);
    }
    keep(file, record.line);
  }

  std::string where(std::uint32_t file, int line) const {
    return paths_[file] + ":" + std::to_string(line);
  }

  // Writes row_ unless a row of its figure was kept: an exact repeat is dropped, other contents
  // are refused.
  void keep(std::uint32_t file, int line) {
    figure_of(row_, figure_);
    line_.clear();
    append_csv_line(line_, row_);
    const std::size_t h = hash_ ? hash_(figure_) : std::hash<std::string>{}(figure_);
    for (auto [it, last] = kept_.equal_range(h); it != last; ++it) {
      const KeptFigure& k = it->second;
      out_.read(k.offset, k.size, earlier_);
      if (earlier_ == line_) {
        ++result_.duplicates;
        return;
      }
      // Other contents: of this figure, or of another whose figure hashes alike.
      CsvText text = split_csv(earlier_);
      figure_of(text.records.at(0).fields, earlier_figure_);
      if (earlier_figure_ == figure_)
        throw UsageError("merge: " + where(file, line) + " and " + where(k.file, k.line) +
                         " are the same figure of the same run (run_id, method, config, GPUs, "
                         "launcher, metric) with different contents: the files disagree, and "
                         "merge does not choose");
    }
    kept_.emplace(h, KeptFigure{offset_, static_cast<std::uint32_t>(line_.size()), file, line});
    write_line();
    ++result_.rows;
    ++result_.by_status[row_[index_of(Row::columns(), "status")]];
    if (on_row_) on_row_(row_);
  }

  void write_line() {
    out_.append(line_);
    offset_ += line_.size();
  }

  const std::vector<std::string>& paths_;
  MergeOutput& out_;
  const MergedRowFn& on_row_;
  const FigureHashFn& hash_;
  MergeResult result_;
  std::unordered_multimap<std::size_t, KeptFigure> kept_;
  // Per file and schema version: see missing_column.
  std::map<std::pair<std::uint32_t, int>, std::optional<std::string>> missing_;
  std::uint64_t offset_ = 0;  // of the next line in the output
  // The row being merged, its line and figure (their strings reused from row to row).
  std::vector<std::string> row_;
  std::string line_, figure_, earlier_, earlier_figure_;
};

}  // namespace

MergeResult merge_csv_files(const std::vector<std::string>& paths, MergeOutput& out,
                            const MergedRowFn& on_row, const FigureHashFn& hash) {
  Merger merger(paths, out, on_row, hash);
  for (std::size_t i = 0; i < paths.size(); ++i) merger.add_file(static_cast<std::uint32_t>(i));
  return merger.take();
}

void append_csv_line(std::string& text, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) text += ',';
    // A field that needs no quotes as it is: no string made per field.
    if (fields[i].find_first_of(",\"\r\n") == std::string::npos)
      text += fields[i];
    else
      text += csv_quote(fields[i]);
  }
  text += "\r\n";
}

std::string format_csv(const std::vector<std::vector<std::string>>& rows) {
  std::string text;
  append_csv_line(text, Row::columns());
  for (const auto& r : rows) append_csv_line(text, r);
  return text;
}

}  // namespace gb
