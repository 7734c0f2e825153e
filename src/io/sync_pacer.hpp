// When an appended file is fsynced: at once after a line that holds a measurement (a killed job
// or a crashed node keeps it), but for lines that measured nothing (skipped points: a sweep over
// a machine without the hardware writes thousands of them) at most once a second, and when the
// file closes. One fsync per skipped row made 100,000 skipped points take minutes.
#pragma once

#include <chrono>

namespace gb {

class SyncPacer {
 public:
  // Whether to fsync after writing a line; `durable`: the line must reach the disk now.
  bool due(bool durable) {
    const auto now = std::chrono::steady_clock::now();
    dirty_ = true;
    if (!durable && now - last_ < std::chrono::seconds(1)) return false;
    last_ = now;
    dirty_ = false;
    return true;
  }
  // Whether lines were written since the last fsync (to sync them when the file closes).
  bool dirty() const { return dirty_; }

 private:
  std::chrono::steady_clock::time_point last_{};
  bool dirty_ = false;
};

}  // namespace gb
