// The session's output files on rank 0: the CSV and its completion log (`<csv>.done`), started
// afresh or, with --resume, repaired and continued, and the --raw file of samples. Every rank
// learns the finished points.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/csv_writer.hpp"
#include "io/raw_writer.hpp"
#include "io/resume_log.hpp"
#include "runtime/launcher.hpp"

namespace gb::cli {

struct Outputs {
  std::unique_ptr<DoneLog> log;  // rank 0 with a file only
  std::unique_ptr<CsvWriter> csv;
  std::unique_ptr<RawWriter> raw;  // rank 0 with --raw only
  std::vector<DoneEntry> done;     // --resume: the points finished before, on every rank
  long base_rows = 0;              // data rows the CSV held before this session
};

struct OpenFlags {
  bool resume = false;  // continue the files (repairing a killed run's torn ends)
  bool force = false;   // replace files that hold something
};

// `path` std::nullopt: no CSV (app/default_out.hpp, csv_path_of) (then --resume is refused);
// `raw_path` "": no raw file (with
// --resume an existing one is appended to). Without --resume or --force, a CSV, completion log or
// raw file that holds anything is refused, before anything is created or truncated. Throws
// gb::UsageError on every rank when rank 0 cannot open, refuses to overwrite or refuses to resume
// a file; repairs are reported on stderr.
Outputs open_outputs(const Launch& launch, const std::optional<std::string>& path,
                     const std::string& raw_path, const OpenFlags& flags);

}  // namespace gb::cli
