// Which points of a session are done, and the record of each one that finishes: --resume starts
// from the output's completion log (io/resume_log.hpp), failed and timeout points count as done
// unless --retry-failed (up to --max-retries more attempts each, counted in the log), and a point
// finished in this session is never run twice in it.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "core/runner.hpp"
#include "io/csv_writer.hpp"
#include "io/resume_log.hpp"

namespace gb::cli {

struct RetryPolicy {
  bool retry_failed = false;
  int max_retries = 2;  // attempts after the first failed one
};

class PointBook : public PointHooks {
 public:
  PointBook(const std::vector<DoneEntry>& history, RetryPolicy retry);

  // Rank 0 with an output file: finished points are appended to `log`, with the CSV's row count
  // (`base_rows` it held before this session plus what `csv` wrote). `mark_inflight` (runs under
  // mpirun/srun): each point that starts is marked beside the CSV until it is done
  // (io/inflight_mark.hpp), for `gpubarrier lost-point` after a rank died in it.
  void record_to(DoneLog* log, const CsvWriter* csv, long base_rows, bool mark_inflight = false);

  bool start(const Record& point) override;
  void finished(const Record& point, Status outcome) override;

  bool done(const PointKey& key) const;
  // Every point that counts as done now, for an isolated child to skip.
  std::vector<DoneEntry> done_entries() const;

 private:
  struct History {
    int failures = 0;  // failed or timeout attempts
    Status last = Status::ok;
    DoneEntry entry;
  };
  std::map<PointKey, History> history_;
  std::set<PointKey> this_session_;
  std::vector<DoneEntry> finished_;
  RetryPolicy retry_;
  DoneLog* log_ = nullptr;
  const CsvWriter* csv_ = nullptr;
  long base_rows_ = 0;
  bool mark_inflight_ = false;
};

}  // namespace gb::cli
