// The completion log beside an output CSV, `<csv>.done`: one line per finished point, written
// and fsynced after the point's last row, so that `--resume` knows exactly which points are done
// even after kill -9. Each line holds the point's key (the CSV's key columns), its outcome and
// the number of data rows the CSV held once the point was done; rows beyond the last line's
// count belong to a point that never finished. The log is itself a small CSV:
//
//   rows,status,run_id,method,config,gpu_ids,launcher,ranks,nodes
//   1,ok,20261122T043312Z-vm-42,host.omp.barrier,group_size=2,,single,1,1
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "core/record.hpp"
#include "io/sync_pacer.hpp"

namespace gb {

struct DoneEntry {
  long rows = 0;  // data rows in the CSV once this point was done
  Status status = Status::ok;
  std::string run_id;
  PointKey key;
};

struct DoneLogText {
  std::vector<DoneEntry> entries;
  std::size_t good_bytes = 0;  // length of the text up to the last complete line
  bool torn = false;           // a last line without its terminator (dropped)
  bool headed = false;         // the header is there (a log that was never started has none)
};

std::string done_log_path(const std::string& csv_path);

// The header line and one line per entry.
std::string format_done_log(const std::vector<DoneEntry>& entries);
// Throws gb::ParseError "source:line: ..." for a wrong header or a malformed complete line.
DoneLogText parse_done_log(std::string_view text, const std::string& source);

Status status_from_string(std::string_view text);  // throws gb::UsageError for an unknown one

// Whether a gpubarrier run is writing `csv_path` now: its completion log is locked (DoneLog).
bool being_written(const std::string& csv_path);

// The log file of one output CSV, open for appending and locked (flock) for as long as it
// lives: a second gpubarrier writing the same CSV is refused rather than interleaved.
class DoneLog {
 public:
  explicit DoneLog(const std::string& csv_path);  // throws gb::UsageError
  ~DoneLog();
  DoneLog(const DoneLog&) = delete;
  DoneLog& operator=(const DoneLog&) = delete;

  const std::string& path() const { return path_; }
  std::string read() const;          // the whole log as it is on disk
  void truncate(std::size_t bytes);  // drops a torn last line
  void start_fresh();                // only the header: a new CSV, nothing done yet
  // One line, fsynced at once unless the point was skipped (then paced, io/sync_pacer.hpp).
  void append(const DoneEntry& entry);

 private:
  std::string path_;
  int fd_ = -1;
  SyncPacer sync_;
};

}  // namespace gb
