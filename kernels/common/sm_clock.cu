#include <chrono>
#include <thread>

#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "runtime/timers.cuh"
#include "topology/nvml_clock.hpp"

namespace gb {
namespace {

constexpr std::uint64_t kWindowNs = 20'000'000;

__global__ void sm_clock_kernel(std::uint64_t window_ns, long long* out) {
  const std::uint64_t g0 = dev::global_ns();
  const long long c0 = dev::sm_clock();
  std::uint64_t g1 = g0;
  while (g1 - g0 < window_ns) g1 = dev::global_ns();
  const long long c1 = dev::sm_clock();
  out[0] = c1 - c0;
  out[1] = static_cast<long long>(g1 - g0);
}

std::string pci_bus_id(int device) {
  char id[32] = {};
  GB_CUDA_CHECK(cudaDeviceGetPCIBusId(id, sizeof id, device));
  return id;
}

}  // namespace

SmClock measure_sm_clock(int device) {
  GB_CUDA_CHECK(cudaSetDevice(device));
  DeviceBuffer<long long> out(2);
  sm_clock_kernel<<<1, 1>>>(kWindowNs, out.get());
  GB_CUDA_CHECK(cudaGetLastError());
  // NVML's reading while the kernel spins (the launch returns at once): the clock under load.
  std::this_thread::sleep_for(std::chrono::nanoseconds(kWindowNs / 2));
  const topo::NvmlSmClock nvml = topo::nvml_sm_clock(pci_bus_id(device));
  GB_CUDA_CHECK(cudaDeviceSynchronize());
  const auto v = out.to_host();
  const double estimate = static_cast<double>(v[0]) / static_cast<double>(v[1]) * 1e9;
  double max_hz = nvml.max_hz;
  if (max_hz <= 0) {
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess)
      max_hz = khz * 1e3;
  }
  return choose_sm_clock(estimate, nvml.current_hz, max_hz);
}

}  // namespace gb
