#include "multi_device.hpp"

namespace legacy {
namespace {

constexpr int kLaunchThreads = 128;
// The late GPU's kernel lasts this much longer: a wait that skipped it is caught reading early.
constexpr unsigned kLateNs = 200000;

__global__ void empty_kernel() {}

__global__ void stamp_kernel(unsigned* slot, unsigned value, unsigned late_ns) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (unsigned slept = 0; slept < late_ns; slept += 50000) __nanosleep(50000);
  *static_cast<volatile unsigned*>(slot) = value;
}

__global__ void sleep_units(long units, unsigned unit_ns) {
  for (long u = 0; u < units; ++u) __nanosleep(unit_ns);
}

}  // namespace

std::vector<double> launch_steps(const Devices& devices, long warmup, long steps) {
  const std::vector<void**> none(devices.count(), nullptr);
  const dim3 grid(devices.sms()), block(kLaunchThreads);
  const void* kernel = reinterpret_cast<const void*>(empty_kernel);
  for (long i = 0; i < warmup; ++i) {
    devices.launch(kernel, grid, block, none);
    devices.wait();
  }
  std::vector<double> ns;
  for (long i = 0; i < steps; ++i) {
    const auto t0 = Clock::now();
    devices.launch(kernel, grid, block, none);
    devices.wait();
    ns.push_back(seconds_since(t0) * 1e9);
  }
  return ns;
}

long launch_check(const Devices& devices, long rounds) {
  const int n = devices.count();
  unsigned* slots = nullptr;  // mapped host memory: the host reads it without a CUDA call
  LEGACY_CHECK(
      cudaHostAlloc(&slots, n * sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable));
  long stale = 0;
  try {
    for (int i = 0; i < n; ++i) slots[i] = 0;
    struct Args {
      unsigned* slot;
      unsigned value;
      unsigned late_ns;
    };
    std::vector<Args> args(n);
    std::vector<std::vector<void*>> ptrs(n);
    std::vector<void**> params(n);
    for (long r = 1; r <= rounds; ++r) {
      for (int i = 0; i < n; ++i) {
        args[i] = {slots + i, static_cast<unsigned>(r), i == r % n ? kLateNs : 0};
        ptrs[i] = {&args[i].slot, &args[i].value, &args[i].late_ns};
        params[i] = ptrs[i].data();
      }
      devices.launch(reinterpret_cast<const void*>(stamp_kernel), dim3(devices.sms()),
                     dim3(kLaunchThreads), params);
      devices.wait();
      for (int i = 0; i < n; ++i)
        stale += static_cast<volatile unsigned*>(slots)[i] != static_cast<unsigned>(r);
    }
  } catch (...) {
    cudaFreeHost(slots);
    throw;
  }
  LEGACY_CHECK(cudaFreeHost(slots));
  return stale;
}

std::string sleep_residency(int blocks_per_sm, int threads) {
  return residency_problem(reinterpret_cast<const void*>(sleep_units), "the sleep kernel",
                           blocks_per_sm, threads);
}

double fuse(const Devices& devices, int blocks_per_sm, int threads, long launches, long units,
            unsigned unit_ns) {
  std::vector<void*> ptrs = {&units, &unit_ns};
  const std::vector<void**> params(devices.count(), ptrs.data());
  const dim3 grid(blocks_per_sm * devices.sms()), block(threads);
  const auto t0 = Clock::now();
  for (long l = 0; l < launches; ++l)
    devices.launch(reinterpret_cast<const void*>(sleep_units), grid, block, params);
  devices.wait();
  return seconds_since(t0);
}

}  // namespace legacy
