// reduction.block: one block sums an array already in its shared memory (the study (Zhang, Wahib,
// Zhang, Matsuoka), section 7.2: "the data is usually kept in shared memory"), each thread a
// strided share, then the block's warp-shuffle tree with one barrier. Axis threads_per_block
// 1 | 32 | 1024: the measured side of the model's "1 thread vs 1 warp" and "32 vs 1024 threads"
// (gpubarrier_tools/cli/model.py reads the crossing of their latency curves). Clock technique: thread 0 reads
// clock64 after the block has loaded the array and once it holds the sum. Axis cache as every
// reduction (common/l2_evict.hpp); here the array is loaded before the timed span starts, so cold
// and warm time the same work.
#include "common/sm_clock.hpp"
#include "core/registry.hpp"
#include "core/techniques.hpp"
#include "reduction/detail/reduction_method.cuh"
#include "runtime/timers.cuh"

namespace gb::reduction {
namespace {

__global__ void block_kernel(const double* data, std::uint64_t n, double* out, long long* cycles) {
  extern __shared__ double array[];
  __shared__ double scratch[32];
  for (std::uint64_t i = threadIdx.x; i < n; i += blockDim.x) array[i] = data[i];
  __syncthreads();
  const long long t0 = dev::sm_clock();
  const double sum = block_sum(strided_sum(array, n, threadIdx.x, blockDim.x), scratch);
  if (threadIdx.x != 0) return;
  asm volatile("" ::"d"(sum) : "memory");  // the sum is complete before the second read
  const long long t1 = dev::sm_clock();
  *out = sum;
  *cycles = t1 - t0;
}

struct Cycles {
  Cycles() : span(1) {}
  DeviceBuffer<long long> span;
};

class BlockReduction final : public SingleReduction {
 public:
  BlockReduction()
      : SingleReduction(
            {.name = "reduction.block",
             .level = Level::block,
             .description = "one block sums a double array held in its shared memory: strided "
                            "shares, warp shuffles, one barrier (clock technique)",
             .axes = method_axes(),
             .timed = {{.instruction = "BAR.SYNC"}}}) {}
  // Sizes that fit in shared memory: 8 B to 128 KiB in x2 steps (both predicted switch points
  // of the in-block pairs lie inside).
  static std::vector<Axis> method_axes() {
    std::vector<long> bytes;
    for (long b = 8; b <= (128L << 10); b *= 2) bytes.push_back(b);
    return {{"threads_per_block", {1, 32, 1024}}, {"bytes", bytes}, cache_axis()};
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long t = p.at("threads_per_block");
    if (t != 1 && (t < 32 || t > 1024 || t % 32 != 0))
      return Usability::no("threads_per_block must be 1 or a multiple of 32 up to 1024");
    if (Usability u = SingleReduction::feasible(ctx, p); !u.ok) return u;
    int most = 0;
    GB_CUDA_CHECK(
        cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx.gpus.front()));
    const long room = most - 32 * static_cast<long>(sizeof(double));
    if (p.at("bytes") > room)
      return Usability::no("the array must fit in one block's shared memory: at most " +
                           std::to_string(room) + " bytes here");
    return Usability::yes();
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    Input& in = input(state);
    const SmClock clock = measure_sm_clock(ctx.gpus.front());
    Cycles& c = state.resource<Cycles>();
    const CachePolicy& cache = cache_of(state);
    auto sample = [&] {
      cache.evict(0, 0);  // untimed: before the launch, waited for
      run(state, in);
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      return static_cast<double>(c.span.to_host()[0]);
    };
    std::vector<Measurement> rows = clock_technique(ctx, sample, clock, 1);
    const Measurement& ns = rows.back();  // latency (ns)
    rows.push_back(bandwidth_of(ns.samples, static_cast<double>(in.n) * sizeof(double),
                                Metric::bandwidth, "GB/s", Technique::clock, ns.stop));
    rows.back().sm_clock_hz = clock.hz;
    rows.back().sm_clock_source = sm_clock_source_name(clock.source);
    rows.back().reps_hi = 1;
    for (Measurement& m : rows)
      m.note = join_notes(join_notes(error_note(in.error), m.note), cache.note());
    return rows;
  }

 protected:
  void run(State& state, Input& in) override {
    const int threads = static_cast<int>(state.point().at("threads_per_block"));
    const int smem = static_cast<int>(in.n * sizeof(double));
    GB_CUDA_CHECK(
        cudaFuncSetAttribute(block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    block_kernel<<<1, threads, smem>>>(in.data.get(), in.n, in.out.get(),
                                       state.resource<Cycles>().span.get());
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::BlockReduction)
