#include "core/cuda_check.hpp"
#include "runtime/host_steps.hpp"
#include "runtime/timers.cuh"

namespace gb::mg {
namespace {

constexpr int kMaxStamps = 64;  // topo::kMaxGpus

struct StampTable {
  const unsigned* stamp[kMaxStamps];
  int members;
};

__global__ void empty() {}

__global__ void stamp(unsigned* own, unsigned value, std::uint64_t late_ns) {
  const std::uint64_t until = dev::global_ns() + late_ns;
  while (dev::global_ns() < until) __nanosleep(1000);
  *static_cast<volatile unsigned*>(own) = value;
}

__global__ void check(const __grid_constant__ StampTable t, unsigned value, unsigned* stale) {
  unsigned bad = 0;
  for (int m = threadIdx.x; m < t.members; m += blockDim.x)
    bad += *static_cast<const volatile unsigned*>(t.stamp[m]) < value;
  if (bad) atomicAdd(stale, bad);
}

}  // namespace

void launch_empty(cudaStream_t stream) {
  empty<<<1, 1, 0, stream>>>();
  GB_CUDA_CHECK(cudaGetLastError());
}

const void* empty_kernel() {
  return reinterpret_cast<const void*>(empty);
}

void launch_stamp(cudaStream_t stream, unsigned* own, unsigned value, std::uint64_t late_ns) {
  stamp<<<1, 1, 0, stream>>>(own, value, late_ns);
  GB_CUDA_CHECK(cudaGetLastError());
}

void launch_check(cudaStream_t stream, const std::vector<unsigned*>& stamps, unsigned value,
                  unsigned* stale) {
  StampTable t{};
  t.members = static_cast<int>(stamps.size());
  if (t.members > kMaxStamps) throw Error("at most 64 members can be checked");
  for (int m = 0; m < t.members; ++m) t.stamp[m] = stamps[m];
  check<<<1, 64, 0, stream>>>(t, value, stale);
  GB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gb::mg
