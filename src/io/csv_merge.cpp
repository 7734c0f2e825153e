#include "io/csv_merge.hpp"

#include <algorithm>
#include <charconv>
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

// The columns that say which figure a row is: a run measures each at most once.
const std::vector<std::string>& identity_columns() {
  static const std::vector<std::string> cols{"run_id",   "method", "config", "gpu_ids",
                                             "launcher", "ranks",  "nodes",  "technique",
                                             "metric",   "unit",   "status"};
  return cols;
}

// A figure kept: where its row is in the result, and where it was read (file:line). The row
// itself is held once, in the result.
struct Seen {
  std::size_t index;
  std::string where;
};

class Merger {
 public:
  void add_file(const std::string& path) {
    std::string text = read_text_file(path);
    // A byte-order mark (a spreadsheet's "CSV UTF-8") is no part of the first column's name.
    if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    CsvText csv = split_csv(text);
    std::string().swap(text);  // the records hold the fields now: one copy of the file at a time
    if (csv.torn)
      refuse(path, csv.torn->line,
             "the last row is torn (no line end): its writer was killed mid-row or is still "
             "writing; `gpubarrier run|sweep --resume --out " +
                 path + "` repairs a file that has its .done log");
    if (csv.records.empty()) refuse(path, 1, "empty file, expected a gpubarrier CSV header");
    const std::vector<std::string>& header = csv.records.front().fields;
    const auto map = column_map(path, header);
    for (std::size_t i = 1; i < csv.records.size(); ++i) add_row(path, header, map, csv.records[i]);
    ++result_.files;
  }

  MergeResult take() { return std::move(result_); }

 private:
  [[noreturn]] static void refuse(const std::string& path, int line, const std::string& what) {
    throw UsageError("merge: " + path + ":" + std::to_string(line) + ": " + what);
  }

  // For each current column, where the file has it (npos: it does not).
  static std::vector<std::size_t> column_map(const std::string& path,
                                             const std::vector<std::string>& header) {
    const auto& cols = Row::columns();
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string col = "column " + std::to_string(i + 1) + " '" + header[i] + "'";
      if (index_of(cols, header[i]) == cols.size())
        refuse(path, 1,
               col + " is not a column of any gpubarrier schema (v1..v" +
                   std::to_string(kSchemaVersion) + "; results/SCHEMA.md)");
      if (index_of(header, header[i]) != i) refuse(path, 1, col + " appears twice");
    }
    if (index_of(header, "schema_version") == header.size())
      refuse(path, 1, "missing column 'schema_version' (not a gpubarrier CSV?)");
    std::vector<std::size_t> map;
    for (const auto& c : cols) {
      const std::size_t at = index_of(header, c);
      map.push_back(at == header.size() ? std::string::npos : at);
    }
    return map;
  }

  void add_row(const std::string& path, const std::vector<std::string>& header,
               const std::vector<std::size_t>& map, CsvRecord& record) {
    auto& f = record.fields;
    if (f.size() != header.size())
      refuse(path, record.line,
             std::to_string(f.size()) + " fields, the header has " + std::to_string(header.size()) +
                 " (a torn or hand-edited row)");
    const std::string& v = f[index_of(header, "schema_version")];
    int version = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), version);
    const auto required = Row::columns_of_version(version);
    if (ec != std::errc() || end != v.data() + v.size() || required.empty())
      refuse(path, record.line,
             "column schema_version: '" + v + "' is not a known schema version (1.." +
                 std::to_string(kSchemaVersion) + ")");
    for (const auto& c : required)
      if (index_of(header, c) == header.size())
        refuse(path, 1,
               "missing column '" + c + "', which schema v" + v + " requires (line " +
                   std::to_string(record.line) + " is a v" + v + " row)");
    std::vector<std::string> row;
    // Each of the file's columns maps to one column of the row: its field is moved, not copied.
    for (std::size_t at : map) row.push_back(at == std::string::npos ? "" : std::move(f[at]));
    if (version < kSchemaVersion) ++result_.upgraded;
    keep(path + ":" + std::to_string(record.line), std::move(row));
  }

  void keep(const std::string& where, std::vector<std::string> row) {
    std::string identity;
    for (const auto& c : identity_columns()) identity += row[index_of(Row::columns(), c)] + '\x1f';
    const auto [it, fresh] =
        seen_.try_emplace(std::move(identity), Seen{result_.rows.size(), where});
    if (!fresh) {
      if (result_.rows[it->second.index] == row) {
        ++result_.duplicates;
        return;
      }
      throw UsageError("merge: " + where + " and " + it->second.where +
                       " are the same figure of the same run (run_id, method, config, GPUs, "
                       "launcher, metric) with different contents: the files disagree, and "
                       "merge does not choose");
    }
    ++result_.by_status[row[index_of(Row::columns(), "status")]];
    result_.rows.push_back(std::move(row));
  }

  MergeResult result_;
  std::unordered_map<std::string, Seen> seen_;
};

}  // namespace

MergeResult merge_csv_files(const std::vector<std::string>& paths) {
  Merger merger;
  for (const auto& p : paths) merger.add_file(p);
  return merger.take();
}

std::string format_csv(const std::vector<std::vector<std::string>>& rows) {
  std::string text;
  const auto line = [&text](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) text += ',';
      text += csv_quote(fields[i]);
    }
    text += "\r\n";
  };
  line(Row::columns());
  for (const auto& r : rows) line(r);
  return text;
}

}  // namespace gb
