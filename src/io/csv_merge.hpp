// `gpubarrier merge`: joining the CSVs of many runs (job steps, nodes, requeues) into one.
// Every input is read by column name and brought to the current layout: a file of an older
// schema version gains the newer columns, empty, and its rows keep their own schema_version
// (what their figures meant when they were written). A row repeated exactly (the same file given
// twice, a part merged again) is kept once.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gb {

struct MergeResult {
  std::vector<std::vector<std::string>> rows;  // in the order of Row::columns()
  int files = 0;
  long duplicates = 0;  // exact repeats dropped
  long upgraded = 0;    // rows read from files of an older schema version
  std::map<std::string, long> by_status;
};

// Throws gb::UsageError naming file, line and column for what cannot be reconciled: a column
// no schema version has, a column the row's schema version requires but the file lacks, an
// unknown schema_version, a row with the wrong number of fields (torn or hand-edited), the same
// figure of the same run with different contents in two places.
MergeResult merge_csv_files(const std::vector<std::string>& paths);

// The header and the rows as CSV text (RFC 4180, CRLF).
std::string format_csv(const std::vector<std::vector<std::string>>& rows);

}  // namespace gb
