// Other work on the GPU while a barrier is timed: a bandwidth-bound copy kernel on a stream of its
// own, resident beside the barrier's grid, running until the barrier's figure is taken. On Hopper a
// fence waits for every memory operation of its memory synchronization domain in flight, the
// copy's too, unless the two kernels run in different domains (CUDA Programming Guide, "Memory
// Synchronization Domains"); the axis `background` sets the barrier beside no copy, beside a copy
// in its own domain, and beside the same copy with the barrier launched in the remote domain (what
// the library's launch helpers do when asked, include/gpubarrier/residency.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "core/method.hpp"

namespace gb {

enum class Background { none = 0, copy = 1, copy_other_domain = 2 };

// The axis, its default none: every method that has it states it with this.
Axis background_axis();

// The barrier's launch attribute for `b`: the remote domain for copy_other_domain, else the
// default domain.
cudaLaunchMemSyncDomain barrier_domain(Background b);

// Whether a barrier grid of `per_sm` blocks x `threads` threads leaves room on every SM for the
// copy's block (the copy and the barrier must be resident together, or the barrier waits for the
// copy to end); a reason for a skipped row otherwise.
Usability background_fits(Background b, long per_sm, int threads);

// Starts the copy on the current device (none: nothing) and stops it when destroyed. The copy
// ends by itself after kStopAfterNs whatever happens to its owner, so it can never hold the GPU;
// running() says whether it still runs, so that a figure is claimed to be under load only when
// the copy ran throughout (a GPU may hold a cooperative launch back until other kernels end).
class BackgroundLoad {
 public:
  static constexpr int kThreads = 256;  // one block of kThreads per SM
  static constexpr unsigned long long kStopAfterNs = 10'000'000'000ull;
  explicit BackgroundLoad(Background b);
  ~BackgroundLoad();
  // Whether the copy still runs (always true for none).
  bool running() const;
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

 private:
  void stop() noexcept;
  cudaStream_t stream_ = nullptr;
  volatile unsigned* stop_ =
      nullptr;  // pinned host memory: [0] stop, read by the copy; [1] started
  float* from_ = nullptr;
  float* to_ = nullptr;
};

}  // namespace gb
