// The progress line of a long run on a terminal: the point running now, how many of the whole
// session's points are done and an estimate of the time left, redrawn in place on stderr. Rows
// and messages never glue to it: whoever prints calls clear() first, and the next update draws it
// again below them. On anything but a terminal it prints nothing (logs and pipes stay clean).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace gb {

class ProgressLine {
 public:
  // `total` points in the session; `enabled` false (not rank 0, an isolated child, stderr not a
  // terminal) makes every call a no-op.
  ProgressLine(std::size_t total, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether stderr is a terminal (and GPUBARRIER_PROGRESS is not 0; 1 forces the line on).
  static bool wanted();

  void begin(const std::string& what);  // a point starts: shown as running
  void end();                           // it finished (ran or was skipped)
  void clear();                         // erase the line before anything else is printed

  // The text of the line (tests): "[3/10 12s, ~28s left] gpu.grid.cg blocks_per_sm=1".
  std::string text() const;

 private:
  void draw();
  std::size_t total_, done_ = 0;
  bool enabled_, shown_ = false;
  std::string running_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gb
