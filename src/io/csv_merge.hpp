// `gpubarrier merge`: joining the CSVs of many runs (job steps, nodes, requeues) into one.
// Every input is read by column name and brought to the current layout: a file of an older
// schema version gains the newer columns, empty, and its rows keep their own schema_version
// (what their figures meant when they were written). A row repeated exactly (the same file given
// twice, a part merged again) is kept once.
//
// The inputs are read record by record and each row kept is written out as it is read: what
// merge holds is one record and, per row kept, where it is in the output (about 65 bytes), so
// files of many times the memory merge in a fraction of their size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gb {

// Where the merged CSV goes: the header, then each row kept, appended in order; read back where
// a later row names a figure already kept, to tell an exact repeat from other contents.
class MergeOutput {
 public:
  virtual ~MergeOutput() = default;
  virtual void append(std::string_view text) = 0;
  // `size` bytes from `offset` of what append wrote, into `text` (its room reused).
  virtual void read(std::uint64_t offset, std::size_t size, std::string& text) = 0;
};

struct MergeResult {
  int files = 0;
  long rows = 0;        // rows written
  long duplicates = 0;  // exact repeats dropped
  long upgraded = 0;    // rows read from files of an older schema version
  std::map<std::string, long> by_status;
};

// Called with each row kept, in the order of Row::columns(), as it is written.
using MergedRowFn = std::function<void(const std::vector<std::string>& row)>;
// What tells the figures apart in memory; a hash that gives two figures the same value costs a
// read of the output and changes nothing (tests give one that always does).
using FigureHashFn = std::function<std::size_t(std::string_view figure)>;

// Writes the merged CSV (RFC 4180, CRLF) to `out`. Throws gb::UsageError naming file, line and
// column for what cannot be reconciled: a column no schema version has, a column the row's
// schema version requires but the file lacks, an unknown schema_version, a row with the wrong
// number of fields (torn or hand-edited), the same figure of the same run with different
// contents in two places; and a file over the bounds of CsvFileReader (io/csv_reader.hpp).
MergeResult merge_csv_files(const std::vector<std::string>& paths, MergeOutput& out,
                            const MergedRowFn& on_row = {}, const FigureHashFn& hash = {});

// One CSV line (CRLF) of `fields`, appended to `text`.
void append_csv_line(std::string& text, const std::vector<std::string>& fields);

// The header and the rows as CSV text (RFC 4180, CRLF).
std::string format_csv(const std::vector<std::vector<std::string>>& rows);

}  // namespace gb
