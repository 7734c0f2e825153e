// model.gmem.stream: the model's global-memory inputs for "1 block vs the grid" and "1 GPU vs N
// GPUs" (the study's section 7.1). Axis grid: 0 = one block of 1024 threads, 1 = the resident grid
// of them (every SM). bandwidth (B/ns): the Fig. 10 loop grid-strided over 256 MiB, event
// technique. latency (ns): thread 0 of every block follows a chain of dependent loads 64 KiB apart
// through another 256 MiB (each sample on lines no earlier sample touched, so they come from DRAM),
// clock technique. The note of the bandwidth row gives C = T x Thr. Axis cache (the bandwidth): 0 =
// cold, the default, L2 evicted before every sample (common/l2_evict.hpp); 1 = warm.
#include <cstdint>

#include "common/device_buffer.hpp"
#include "common/grid_axis.hpp"
#include "common/l2_evict.hpp"
#include "common/sm_clock.hpp"
#include "common/sm_throughput.cuh"
#include "common/strided_sum.cuh"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "model/detail/model_rows.hpp"
#include "runtime/timers.cuh"

namespace gb::model {
namespace {

constexpr std::uint64_t kWords = (256ull << 20) / 8;
constexpr std::uint64_t kStride = 8209;  // words (about 64 KiB), odd: the chain visits every word
constexpr long kChain = 1024;
constexpr int kThreads = 1024;

__global__ void stream_kernel(const double* data, std::uint64_t n, double* sink) {
  const double sum = dev::strided_sum(data, n, dev::grid_thread(), dev::grid_threads());
  if (sum == -1.0) *sink = sum;  // never true: keeps the loads
}

__global__ void chain_init(std::uint64_t* next, std::uint64_t n) {
  for (std::uint64_t i = dev::grid_thread(); i < n; i += dev::grid_threads()) {
    next[i] = (i + kStride) % n;
  }
}

// Block b starts at start + b n / blocks; cycles[b] = its cycles per load.
__global__ void chase_kernel(const std::uint64_t* next, std::uint64_t n, std::uint64_t start,
                             long steps, double* cycles) {
  if (threadIdx.x != 0) return;
  std::uint64_t j = (start + blockIdx.x * (n / gridDim.x)) % n;
  const long long t0 = dev::sm_clock();
  for (long k = 0; k < steps; ++k) j = next[j];
  asm volatile("" ::"l"(j) : "memory");
  const long long t1 = dev::sm_clock();
  cycles[blockIdx.x] = j == n ? -1.0 : static_cast<double>(t1 - t0) / steps;
}

struct Arrays {
  explicit Arrays(int block_count)
      : blocks(block_count), data(kWords), next(kWords), cycles(block_count), sink(1) {
    chain_init<<<multiprocessor_count(device()) * 4, 256>>>(next.get(), kWords);
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
  }
  static int device() {
    int d = 0;
    GB_CUDA_CHECK(cudaGetDevice(&d));
    return d;
  }
  // Mean cycles per load over the blocks; the next sample starts where this one ended.
  double chase() {
    chase_kernel<<<blocks, 32>>>(next.get(), kWords, start, kChain, cycles.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    start = (start + kChain * kStride) % kWords;
    double sum = 0;
    for (double c : cycles.to_host()) sum += c;
    return sum / blocks;
  }
  int blocks;
  DeviceBuffer<double> data;
  DeviceBuffer<std::uint64_t> next;
  DeviceBuffer<double> cycles, sink;
  std::uint64_t start = 0;
};

class GmemStream final : public StreamMethod {
 public:
  GmemStream()
      : StreamMethod(
            {.name = "model.gmem.stream",
             .level = Level::grid,
             .description = "the model's global-memory inputs: Fig. 10 loop bandwidth (B/ns, event "
                            "technique) and dependent-load latency (ns, clock technique)",
             .axes = {grid_axis(), cache_axis()},
             .timed = {{.instruction = "LDG"}}}) {}

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    int per_sm = 0;
    GB_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_kernel, kThreads, 0));
    const int blocks =
        full_grid(state.point()) ? per_sm * multiprocessor_count(ctx.gpus.front()) : 1;
    Arrays& a = state.resource<Arrays>(blocks);
    const SmClock clock = measure_sm_clock(ctx.gpus.front());
    std::vector<Measurement> latency = clock_technique(
        ctx, [&] { return a.chase(); }, clock, kChain);
    const CachePolicy& cache = cache_policy(state, {ctx.gpus.front()});
    const Samples s = event_samples(
        ctx, 0, [&] { stream_kernel<<<blocks, kThreads>>>(a.data.get(), kWords, a.sink.get()); },
        cache.before(0));
    Measurement bw = bandwidth_of(s.values, static_cast<double>(kWords) * sizeof(double),
                                  Metric::bandwidth, "B/ns", Technique::event, s.stop);
    bw.note = concurrency_note(latency.back().value, bw.value, "ns") + "; " +
              std::to_string(blocks) + " blocks of " + std::to_string(kThreads) + " threads; " +
              cache.note();
    latency.push_back(std::move(bw));
    return latency;
  }
};

}  // namespace
}  // namespace gb::model

GB_REGISTER_METHOD(gb::model::GmemStream)
