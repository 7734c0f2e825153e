// gpu.grid.cg: cooperative launch + cg::this_grid().sync(), differential technique (seed 001
// sections 5.3 and 9.4; the heat map of seed 002 Fig. 8 over blocks/SM x threads/block).
#include <cooperative_groups.h>

#include <chrono>

#include "common/device_buffer.hpp"
#include "core/registry.hpp"
#include "core/techniques.hpp"

namespace cg = cooperative_groups;

namespace gb {
namespace {

__global__ void grid_sync_timed(long reps) {
  cg::grid_group grid = cg::this_grid();
  for (long r = 0; r < reps; ++r) grid.sync();
}

// Block leaders publish the round; after the grid barrier every block must see every other
// block's stamp of this round or later.
__global__ void grid_sync_check(int rounds, unsigned* stamps, unsigned* failures) {
  cg::grid_group grid = cg::this_grid();
  volatile unsigned* s = stamps;
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0) s[blockIdx.x] = r;
    grid.sync();
    unsigned bad = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) bad += s[b] < unsigned(r);
    if (bad) atomicAdd(failures, bad);
  }
}

int sm_count(int device) {
  int n = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
  return n;
}

void launch_cooperative(const void* kernel, int blocks, int threads, void** args) {
  GB_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, blocks, threads, args, 0, nullptr));
  GB_CUDA_CHECK(cudaDeviceSynchronize());
}

class CgGridSync final : public Method {
 public:
  std::string_view name() const override { return "gpu.grid.cg"; }
  Level level() const override { return Level::grid; }
  std::string_view description() const override {
    return "cg::this_grid().sync() in a cooperative launch (differential technique)";
  }
  std::vector<Axis> axes() const override {
    return {{"blocks_per_sm", {1, 2, 4, 8, 16, 32}},
            {"threads_per_block", {32, 64, 128, 256, 512, 1024}}};
  }
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.max_gpus = 1;
    return r;
  }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    int fit = 0, fit_check = 0;
    GB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, grid_sync_timed,
                                                                static_cast<int>(threads), 0));
    GB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit_check, grid_sync_check,
                                                                static_cast<int>(threads), 0));
    fit = std::min(fit, fit_check);
    if (per_sm > fit)
      return Usability::no("occupancy: at most " + std::to_string(fit) + " blocks/SM of " +
                           std::to_string(threads) + " threads are co-resident");
    return Usability::yes();
  }

  Verification verify(RunContext& ctx, const Point& p) override {
    const int blocks = static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front());
    const int threads = static_cast<int>(p.at("threads_per_block"));
    DeviceBuffer<unsigned> stamps(blocks), failures(1);
    int rounds = 64;
    unsigned* s = stamps.get();
    unsigned* f = failures.get();
    void* args[] = {&rounds, &s, &f};
    launch_cooperative(reinterpret_cast<const void*>(grid_sync_check), blocks, threads, args);
    const unsigned bad = failures.to_host()[0];
    if (bad) return Verification::failed(std::to_string(bad) + " stale block stamps after grid.sync");
    return Verification::passed();
  }

  std::vector<Measurement> measure(RunContext& ctx, const Point& p) override {
    const int blocks = static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front());
    const int threads = static_cast<int>(p.at("threads_per_block"));
    auto run = [&](long reps) {
      void* args[] = {&reps};
      const auto t0 = std::chrono::steady_clock::now();
      launch_cooperative(reinterpret_cast<const void*>(grid_sync_timed), blocks, threads, args);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    return {differential(ctx, run)};
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CgGridSync)
