// --resume: an output CSV and its completion log (io/resume_log.hpp) as a killed run left them,
// checked and repaired before the run goes on.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "io/resume_log.hpp"

namespace gb {

struct ResumeState {
  bool fresh = true;            // no CSV yet (or only its header): start a new one
  std::vector<DoneEntry> done;  // the finished points, in the order they finished
  long rows = 0;                // data rows the CSV keeps: all of them of finished points
  std::set<std::string> runs;   // the run ids of every row and completion line, kept or dropped
};

// Refuses (gb::UsageError naming file, line and column) a CSV of another schema version, with
// another header, with a malformed row, or that does not agree with its log. Repairs what a
// kill leaves behind, each repair one line in `notes`: a torn last row, the rows of the point
// that was running (no completion line), a torn last log line. The kept part of each file is a
// prefix, so a repair is a truncation: atomic, and the files keep their identity (and lock).
ResumeState recover_output(const std::string& csv_path, DoneLog& log,
                           std::vector<std::string>& notes);

// Cuts `path` to its first `bytes` and syncs it (a repair that keeps a prefix); throws gb::Error.
void truncate_file(const std::string& path, std::size_t bytes);

// What is wrong with a CSV header for this schema version, naming the column; empty when
// nothing is.
std::string header_problem(const std::vector<std::string>& header);

}  // namespace gb
