// gpu.block.syncthreads: __syncthreads() latency in one block, clock technique (seed 001 section
// 5.2, seed 002 Table 5). A dependent chain of barriers between two clock64() reads.
#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "common/timers.cuh"
#include "core/registry.hpp"
#include "core/techniques.hpp"

namespace gb {
namespace {

constexpr int kUnroll = 32;  // barriers per loop trip: keeps loop overhead out of the figure
constexpr long kReps = 4096;

__global__ void syncthreads_timed(long trips, long long* cycles) {
  const long long t0 = dev::sm_clock();
  for (long r = 0; r < trips; ++r) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) __syncthreads();
  }
  const long long t1 = dev::sm_clock();
  if (threadIdx.x == 0) *cycles = t1 - t0;
}

// Each thread publishes its round before the barrier; after it, every thread must see every
// other thread's stamp of this round or later.
__global__ void syncthreads_check(int rounds, unsigned* failures) {
  extern __shared__ int stamps[];
  volatile int* s = stamps;
  s[threadIdx.x] = 0;
  __syncthreads();
  for (int r = 1; r <= rounds; ++r) {
    s[threadIdx.x] = r;
    __syncthreads();
    unsigned bad = 0;
    for (unsigned j = 0; j < blockDim.x; ++j) bad += s[j] < r;
    if (bad) atomicAdd(failures, bad);
  }
}

class Syncthreads final : public Method {
 public:
  std::string_view name() const override { return "gpu.block.syncthreads"; }
  Level level() const override { return Level::block; }
  std::string_view description() const override {
    return "__syncthreads() latency in one block (clock technique)";
  }
  std::vector<Axis> axes() const override {
    return {{"threads_per_block", {32, 64, 128, 256, 512, 1024}}};
  }
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.max_gpus = 1;
    return r;
  }
  Usability feasible(const RunContext&, const Point& p) const override {
    const long t = p.at("threads_per_block");
    if (t < 1 || t > 1024) return Usability::no("threads_per_block must be within 1..1024");
    return Usability::yes();
  }

  Verification verify(RunContext& ctx, const Point& p) override {
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int threads = static_cast<int>(p.at("threads_per_block"));
    DeviceBuffer<unsigned> failures(1);
    syncthreads_check<<<1, threads, threads * sizeof(int)>>>(256, failures.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    const unsigned bad = failures.to_host()[0];
    if (bad) return Verification::failed(std::to_string(bad) + " stale stamps seen after the barrier");
    return Verification::passed();
  }

  std::vector<Measurement> measure(RunContext& ctx, const Point& p) override {
    const int device = ctx.gpus.front();
    const int threads = static_cast<int>(p.at("threads_per_block"));
    const double hz = measure_sm_clock_hz(device);
    DeviceBuffer<long long> cycles(1);
    auto sample = [&] {
      syncthreads_timed<<<1, threads>>>(kReps / kUnroll, cycles.get());
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      return static_cast<double>(cycles.to_host()[0]) / kReps;
    };
    return clock_technique(ctx, sample, hz, kReps);
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::Syncthreads)
