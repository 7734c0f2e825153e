// --resume of a --raw file (io/raw_writer.hpp): samples are appended only to the raw file of the
// run being continued, and what a kill left in it is repaired as the CSV's torn end is
// (io/resume_recover.hpp), so that it still parses and holds no sample of a point that runs again.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "io/resume_log.hpp"

namespace gb {

// Refuses (gb::UsageError naming the file, the line where one applies, and what to do) a raw
// file that is not this run's: its header is not RawWriter's columns, a line does not have
// their number of fields, or a sample names a run that is none of `runs` (the runs whose rows or
// completion lines --out holds). Repairs, each one line in `notes`: a torn last line, and the
// samples of points that have no entry in `finished` (the point that was running, which runs
// again): dropped. A missing or empty file is left alone. Dropping a suffix is a truncation; a
// file whose dropped samples are not all at its end is rewritten whole (io/atomic_file.hpp).
void recover_raw(const std::string& raw_path, const std::vector<DoneEntry>& finished,
                 const std::set<std::string>& runs, std::vector<std::string>& notes);

}  // namespace gb
