#include "runtime/host_deadline.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/cuda_check.hpp"

namespace gb::mg {
namespace {

std::mutex stuck_mutex;
std::vector<int> stuck_devices;  // for the life of the process: nothing can free them

}  // namespace

bool finishes_within(cudaStream_t stream, double seconds) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(seconds));
  // Polling without a pause keeps the wait as short as a spinning cudaStreamSynchronize; the
  // clock is read only after a poll found the kernel still running.
  for (;;) {
    const cudaError_t rc = cudaStreamQuery(stream);
    if (rc == cudaSuccess) return true;
    if (rc != cudaErrorNotReady) GB_CUDA_CHECK(rc);
    if (clock::now() > deadline) return false;
  }
}

void mark_stuck(int device) {
  const std::lock_guard<std::mutex> lock(stuck_mutex);
  if (std::find(stuck_devices.begin(), stuck_devices.end(), device) == stuck_devices.end())
    stuck_devices.push_back(device);
}

std::string stuck_problem(const std::vector<int>& devices) {
  const std::lock_guard<std::mutex> lock(stuck_mutex);
  for (int d : devices)
    if (std::find(stuck_devices.begin(), stuck_devices.end(), d) != stuck_devices.end())
      return "GPU " + std::to_string(d) +
             " still runs a kernel that overran its host-side deadline in an earlier "
             "configuration (it spins where no watchdog reaches and cannot be stopped without a "
             "context reset)";
  return {};
}

}  // namespace gb::mg
