// gpu.floor.grid: what a grid barrier cannot go below on this GPU, timed by the differential
// technique beside the barriers. A barrier across blocks needs every block's arrival to reach one
// place in L2 and every block to learn that the last one came: at least the arrivals of all blocks
// on one word, then one load that sees the last of them. The axis `floor` times each part:
//   atomic-rtt   one thread's chain of dependent device-scope atomic adds (each add's address
//                depends on the last one's result): one L2 atomic round trip per step;
//   acquire-rtt  one thread's chain of dependent device-scope acquire loads: one round trip of
//                the poll every waiter pays after the last arrival;
//   arrivals     every block's thread 0 adds to one word, as a barrier's arrivals do, without
//                waiting: per step, what the word's atomic unit takes for blocks_per_sm x SMs
//                arrivals.
// A barrier at blocks_per_sm x threads is then set against arrivals (the same blocks) + acquire-rtt
// (docs/library.md). A floor synchronises nothing, so it has no check.
#include <cuda/atomic>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "common/device_buffer.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "grid/detail/grid_barrier.cuh"

namespace gb::grid {

enum class FloorPart { atomic_rtt = 0, acquire_rtt = 1, arrivals = 2 };

using FloorRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

// One thread: each step's address is the word plus the previous result times zero, so the next
// step cannot issue before the last one returned.
__global__ void floor_chain(unsigned long long* word, long reps, int acquire,
                            unsigned long long* sink) {
  unsigned long long x = 0;
  for (long r = 0; r < reps; ++r) {
    FloorRef ref(word[x & 0]);
    x = acquire ? ref.load(cuda::memory_order_acquire)
                : ref.fetch_add(1, cuda::memory_order_relaxed);
  }
  *sink = x;
}

// Every block's thread 0: `reps` arrivals (release adds, as a barrier's) on one word, no wait.
__global__ void floor_arrivals(unsigned long long* word, long reps) {
  if (threadIdx.x != 0) return;
  FloorRef ref(*word);
  for (long r = 0; r < reps; ++r) ref.fetch_add(1, cuda::memory_order_release);
}

class GridFloor final : public Method {
 public:
  GridFloor()
      : Method(
            {.name = "gpu.floor.grid",
             .level = Level::grid,
             .description = "what a grid barrier cannot go below: a dependent L2 atomic round "
                            "trip, an acquire-load round trip, all blocks' arrivals on one word "
                            "(differential technique)",
             .axes = {
                 {"floor",
                  {0, 1, 2},
                  {{FloorPart::atomic_rtt, "atomic-rtt",
                    "one thread's chain of dependent device-scope atomic adds"},
                   {FloorPart::acquire_rtt, "acquire-rtt",
                    "one thread's chain of dependent device-scope acquire loads"},
                   {FloorPart::arrivals, "arrivals",
                    "every block adds to one word without waiting (blocks_per_sm x SMs blocks)"}}},
                 {"blocks_per_sm", {1, 2, 4}},
                 {"threads_per_block", {128}}}}) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    if (p.choice("floor", FloorPart::atomic_rtt) != FloorPart::arrivals) return Usability::yes();
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || p.at("blocks_per_sm") < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    return blocks_fit("occupancy", p.at("blocks_per_sm"), static_cast<int>(threads),
                      floor_arrivals);
  }

  Verification verify(State&) override {
    return Verification::not_verified("a floor synchronises nothing");
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    DeviceBuffer<unsigned long long> words(2);
    const FloorPart part = p.choice("floor", FloorPart::atomic_rtt);
    const int blocks = static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front());
    const int threads = static_cast<int>(p.at("threads_per_block"));
    auto run = [&](long reps) {
      const auto t0 = std::chrono::steady_clock::now();
      if (part == FloorPart::arrivals)
        floor_arrivals<<<blocks, threads>>>(words.get(), reps);
      else
        floor_chain<<<1, 1>>>(words.get(), reps, part == FloorPart::acquire_rtt, words.get() + 1);
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    return {differential(ctx, run)};
  }
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridFloor)
