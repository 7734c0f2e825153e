// Teardown that neither throws nor hides a failure. An object that acquires several things one
// after the other (allocations, IPC mappings, streams, communicators) records how to give each
// back in a Releases member as soon as it has it: when its constructor throws halfway, the
// member's destructor still runs and gives back what was acquired, and every release's result is
// checked, a failure written to stderr (destructors must not throw).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gb {

// "gpubarrier: <host [rank r/n]>: releasing <what> failed: <error>" on stderr.
void report_release_failure(std::string_view what, std::string_view error) noexcept;

// "" for cudaSuccess, else the error's name and text: the result of a CUDA release step.
std::string cuda_failure(cudaError_t rc);

class Releases {
 public:
  Releases() = default;
  ~Releases() { release_all(); }
  Releases(const Releases&) = delete;
  Releases& operator=(const Releases&) = delete;

  // Records how to give back what was just acquired: `release` returns "" or what went wrong;
  // `what` names it in the report. Throws only when it cannot record (out of memory): then it
  // runs `release` at once, so that nothing acquired is left without an owner.
  void add(std::string what, std::function<std::string()> release);

  // Gives everything back, the last acquired first (also done by the destructor); each failure
  // is reported. Returns the number of failed releases.
  int release_all() noexcept;

 private:
  std::vector<std::pair<std::string, std::function<std::string()>>> steps_;
};

// cudaMalloc of `bytes` on GPU `device` (made current), given back by `releases`; `what` names
// it in a report. Throws gb::ApiError when the allocation fails.
void* device_allocation(Releases& releases, int device, std::size_t bytes, const std::string& what);

}  // namespace gb
