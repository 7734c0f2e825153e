// One configuration's gpubarrier-legacy: started on the configuration's GPUs, asked for raw
// timings and check counts (src/methods/legacy/protocol.hpp), every wait under a host-side
// deadline.
// A State resource, so that verify() and measure() share one helper per point.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "errors/errors.hpp"
#include "methods/legacy/helper_process.hpp"
#include "methods/legacy/protocol.hpp"

namespace gb::legacy {

// The helper says this configuration cannot run here (a skipped row with its reason).
class Unsupported : public Error {
 public:
  using Error::Error;
};

// What the helper is started with (its command-line options).
struct Shape {
  long blocks_per_sm = 1;
  long threads = 128;
  long unit_ns = 1000;
  long host_wait = 0;
};

class Session {
 public:
  // Starts `path` on `gpus` and reads its first line. Throws Unsupported, HelperTimeout,
  // HelperFailed (the helper's own `error` text included) or gb::Error (cannot start).
  Session(const std::string& path, const std::vector<int>& gpus, const Shape& shape,
          double watchdog_s);

  int gpus() const { return gpus_; }
  long blocks() const { return blocks_; }                    // per GPU
  const std::string& versions() const { return versions_; }  // "CUDA 11.8 runtime, driver 13.0"

  long check(long crossings);                           // stale stamps
  double sync(long reps);                               // seconds
  std::vector<double> launch(long warmup, long steps);  // ns per step
  long launch_check(long rounds);                       // stamps missing after the wait
  double fuse(long launches, long units);               // seconds
  // One multi-GPU reduction of a `bytes` array: GPU 0's sum (may be NaN) and the blocks per GPU.
  struct ReductionResult {
    double sum = 0;
    long blocks = 0;
  };
  ReductionResult reduce_check(long bytes);
  std::vector<double> reduce(long bytes, long warmup, long steps);  // ns per whole reduction

 private:
  // Sends `request`, expects `word` back within watchdog + `work_s`; throws as the constructor.
  Reply ask(const std::string& request, const char* word, double work_s, const char* where);

  std::unique_ptr<HelperProcess> helper_;
  double watchdog_s_;
  double unit_s_;
  int gpus_ = 0;
  long blocks_ = 0;
  std::string versions_;
};

// The point's session on ctx.gpus, started on first use; null when the point cannot run here,
// which the state then says (skip).
Session* session_of(State& state, const Shape& shape);

}  // namespace gb::legacy
