#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "runtime/timers.cuh"

namespace gb {
namespace {

__global__ void sm_clock_kernel(std::uint64_t window_ns, long long* out) {
  const std::uint64_t g0 = dev::global_ns();
  const long long c0 = dev::sm_clock();
  std::uint64_t g1 = g0;
  while (g1 - g0 < window_ns) g1 = dev::global_ns();
  const long long c1 = dev::sm_clock();
  out[0] = c1 - c0;
  out[1] = static_cast<long long>(g1 - g0);
}

}  // namespace

double measure_sm_clock_hz(int device) {
  GB_CUDA_CHECK(cudaSetDevice(device));
  DeviceBuffer<long long> out(2);
  sm_clock_kernel<<<1, 1>>>(20'000'000, out.get());
  GB_CUDA_CHECK(cudaGetLastError());
  GB_CUDA_CHECK(cudaDeviceSynchronize());
  const auto v = out.to_host();
  return static_cast<double>(v[0]) / static_cast<double>(v[1]) * 1e9;
}

}  // namespace gb
