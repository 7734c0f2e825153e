// The session's output files on rank 0: the CSV and its completion log (`<csv>.done`), started
// afresh or, with --resume, repaired and continued. Every rank learns the finished points.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/launcher.hpp"
#include "io/csv_writer.hpp"
#include "io/resume_log.hpp"

namespace gb::cli {

struct Outputs {
  std::unique_ptr<DoneLog> log;  // rank 0 with a file only
  std::unique_ptr<CsvWriter> csv;
  std::vector<DoneEntry> done;  // --resume: the points finished before, on every rank
  long base_rows = 0;           // data rows the CSV held before this session
};

// `path` "none": no files (then --resume is refused). Throws gb::UsageError on every rank when
// rank 0 cannot open or refuses to resume the file; repairs are reported on stderr.
Outputs open_outputs(const Launch& launch, const std::string& path, bool resume);

}  // namespace gb::cli
