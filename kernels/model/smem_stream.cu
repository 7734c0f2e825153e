// model.smem.stream: the inputs of the study's model for the in-block pairs (the study (Zhang,
// Wahib, Zhang, Matsuoka), section 7.2, Table 3): one block of threads_per_block threads (1 | 32 |
// 1024) over 48 KiB of shared memory. bandwidth_cycles: the Fig. 10 loop (`sum += s[i]; i += T`)
// over the array, B/cycle of the whole block; latency_cycles: a chain of dependent 8-byte loads,
// every thread its own chain at once (so at 1024 threads the latency under that load). Clock
// technique, the block's span read by thread 0 between two barriers. The note of the bandwidth rows
// gives C = T x Thr.
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "common/strided_sum.cuh"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "model/detail/model_rows.hpp"
#include "runtime/timers.cuh"

namespace gb::model {
namespace {

constexpr unsigned kSharedWords = 6144;  // 48 KiB of 8-byte words, the static shared-memory limit
constexpr long kSharedChain = 1024;      // dependent loads per chase

// Stream (Word = double): `passes` times the Fig. 10 loop. Chase (Word = unsigned long long):
// slot i holds i + T (mod kSharedWords), each thread follows its chain for `passes` loads.
template <class Word>
__global__ void smem_kernel(int passes, long long* cycles, double* sink) {
  __shared__ Word s[kSharedWords];
  const unsigned t = threadIdx.x, threads = blockDim.x;
  for (unsigned i = t; i < kSharedWords; i += threads)
    s[i] = static_cast<Word>((i + threads) % kSharedWords);
  __syncthreads();
  const long long t0 = dev::sm_clock();
  double sum = 0;
  if constexpr (std::is_integral_v<Word>) {
    // Volatile loads: ptxas deletes plain ones whose value is never stored (the test below is
    // provably false for a converted unsigned value, and an empty asm emits nothing for ptxas
    // to see), which left an empty timed region in the first H100 rows; cuobjdump -sass shows
    // the LDS chain between the two CS2R SR_CLOCKLO now.
    const volatile Word* chain = s;
    Word j = t;
    for (int k = 0; k < passes; ++k) j = chain[j];
    sum = static_cast<double>(j);
  } else {
    for (int p = 0; p < passes; ++p) {
      sum += dev::strided_sum(s, kSharedWords, t, threads);
      asm volatile("" ::: "memory");  // every pass loads the array again
    }
  }
  __syncthreads();
  if (t == 0) *cycles = dev::sm_clock() - t0;
  if (sum == -1.0) *sink = sum;  // never true: keeps the loads
}

struct Buffers {
  Buffers() : cycles(1), sink(1) {}
  DeviceBuffer<long long> cycles;
  DeviceBuffer<double> sink;
  double run(void (*kernel)(int, long long*, double*), int threads, int passes) {
    kernel<<<1, threads>>>(passes, cycles.get(), sink.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    return static_cast<double>(cycles.to_host()[0]);
  }
};

class SmemStream final : public StreamMethod {
 public:
  SmemStream()
      : StreamMethod(
            {.name = "model.smem.stream",
             .level = Level::block,
             .description =
                 "the model's shared-memory inputs (the study's Table 3): Fig. 10 loop bandwidth "
                 "(B/cycle) and dependent-load latency (cycles) of one block (clock technique)",
             .axes = {{"threads_per_block", {1, 32, 1024}}},
             .timed = {{.instruction = "LDS"}},
             .bounds = {{.metric = Metric::latency_cycles,
                         .min = 1.0,
                         .why = "a dependent shared-memory load takes at least one cycle"},
                        {.metric = Metric::bandwidth_cycles,
                         .max = 128.0,
                         .why = "an SM's shared memory delivers at most 128 B per cycle (32 "
                                "banks x 4 B)"}}}) {}

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int threads = static_cast<int>(state.point().at("threads_per_block"));
    const SmClock clock = measure_sm_clock(ctx.gpus.front());
    Buffers& b = state.resource<Buffers>();
    // About 6 K loads per thread for one thread, 6 x 64 at 1024.
    const int passes = std::clamp(threads / 16, 1, 64);
    const double bytes = static_cast<double>(kSharedWords) * sizeof(double) * passes;
    std::vector<Measurement> rows = bandwidth_rows(
        adaptive_samples(ctx, [&] { return bytes / b.run(smem_kernel<double>, threads, passes); }),
        clock, passes);
    std::vector<Measurement> latency = clock_technique(
        ctx,
        [&] {
          return b.run(smem_kernel<unsigned long long>, threads, kSharedChain) / kSharedChain;
        },
        clock, kSharedChain);
    const std::string c = concurrency_note(latency.front().value, rows.front().value, "cycles");
    for (Measurement& m : rows) m.note = c;
    rows.insert(rows.end(), latency.begin(), latency.end());
    return rows;
  }
};

}  // namespace
}  // namespace gb::model

GB_REGISTER_METHOD(gb::model::SmemStream)
