// this_multi_grid().sync() across the GPUs of one configuration (the workshop version of the
// study, section 4.3.2, "Multi-Grid Synchronization"): every block of every GPU meets in it, one
// of them late, so that the check sees whether the others waited.
#pragma once

#include "helper.hpp"

namespace legacy {

class MultiGrid {
 public:
  // Throws Unsupported when the GPUs cannot reach each other's memory.
  MultiGrid(const Devices& devices, int blocks_per_sm, int threads);
  ~MultiGrid();
  MultiGrid(const MultiGrid&) = delete;
  MultiGrid& operator=(const MultiGrid&) = delete;

  int blocks() const { return blocks_; }
  // `crossings` syncs with stamps; the number of stale stamps seen after them.
  long check(long crossings);
  // One kernel of `reps` syncs without stamps: seconds from the launch to the end of the wait.
  double sync(long reps);

 private:
  double run(long reps, bool checking);

  const Devices& devices_;
  int blocks_;
  int threads_;
  std::vector<unsigned*> stamps_;  // per GPU: `blocks_` stamps, then its stale count
  bool test_hang_ = false;
};

// Why this shape of the multi-grid kernel cannot run, empty when it can.
std::string multi_grid_residency(int blocks_per_sm, int threads);

}  // namespace legacy
