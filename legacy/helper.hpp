// gpubarrier-legacy's shared pieces: errors, the GPUs of one configuration and their
// multi-device launch. C++17 (nvcc 11.8); nothing from the main project but the protocol.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace legacy {

// Anything the helper answers with `error <what>`.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A configuration this machine cannot run: answered `unsupported <why>` (a skipped row).
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t rc, const char* call, const char* file, int line);
#define LEGACY_CHECK(call) ::legacy::check((call), #call, __FILE__, __LINE__)

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The GPUs of one configuration, a non-blocking stream each. Throws Unsupported where they
// cannot take a cooperative multi-device launch together.
class Devices {
 public:
  Devices(const std::vector<int>& ids, int host_wait);
  ~Devices();
  Devices(const Devices&) = delete;
  Devices& operator=(const Devices&) = delete;

  int count() const { return static_cast<int>(ids_.size()); }
  int id(int i) const { return ids_[i]; }
  // cudaLaunchCooperativeKernelMultiDevice takes one grid size for every GPU: the first GPU's.
  int sms() const { return sms_; }
  // Every GPU reaches every other's memory; `need` says what for, in the Unsupported reason
  // where one cannot.
  void enable_peer_access(const char* need = "the stamp check reads peers' stamps") const;

  // One cooperative multi-device launch of `kernel`, GPU i with parameters `params[i]` (default
  // flags: the launch waits for earlier work on every stream, later work waits for it).
  void launch(const void* kernel, dim3 grid, dim3 block, const std::vector<void**>& params) const;
  void wait() const;  // every stream

 private:
  std::vector<int> ids_;
  std::vector<cudaStream_t> streams_;
  int sms_ = 0;
};

// Why `blocks_per_sm` blocks of `threads` threads of `kernel` cannot all be resident on an SM
// (a cooperative launch needs that), empty when they can.
std::string residency_problem(const void* kernel, const char* name, int blocks_per_sm, int threads);

}  // namespace legacy
