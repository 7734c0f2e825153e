// pitfall.grid.partial-sync: the study's section 8.2 as an experiment. A grid barrier that part
// of the grid never reaches waits for ever: the study saw grid and multi-grid groups deadlock.
// Here some blocks of a cooperative launch skip the barrier.
//
// The software grid barriers (atomic-sense, flag-epoch) carry the in-kernel watchdog
// (common/watchdog.cuh): the blocks that did arrive wait until the watchdog gives up, the kernel
// ends, and the row is `timeout`, saying that part of the grid never arrived: the deadlock
// reproduced, without a hang. Every block arriving (missing=none) is the control: the same
// barrier then lets every block through.
//
// cg::this_grid().sync() (barrier=grid-sync) waits inside CUDA, where no watchdog reaches: with
// part of the grid absent its kernel never ends, and only ending the process ends it (the driver
// then tears the context down with the kernel in it). So a partial grid.sync runs only in the
// child process of --isolate (RunContext::isolated), whose parent kills it with its process
// group once the point overruns --point-timeout and writes the point's `timeout` row; anywhere
// else that point is a skipped row saying so. Before it waits to be killed, the child checks for
// one --watchdog that the kernel is still running and prints how many blocks reached grid.sync
// and how many crossed it (host-mapped words, readable while the kernel runs): the parent's row
// quotes that line. Its control (missing=none) runs anywhere and is an ordinary row, and the
// control after a killed child shows that the GPU came back: a cooperative launch of the whole
// grid needs every SM free.
#include <cooperative_groups.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "grid/atomic_sense.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/flag_epoch.cuh"

namespace gb::grid {
namespace {

constexpr int kRounds = 8;  // barriers per launch: the control crosses a few in a row

enum class Which { atomic_sense = 0, flag_epoch = 1, grid_sync = 2 };
enum class Missing { none = 0, last_block = 1, upper_half = 2 };

// The blocks that never reach the barrier: none, the last block, or the upper half of the grid
// (blocks gridDim.x / 2 and up).
__host__ __device__ inline bool absent(Missing missing, unsigned block, unsigned blocks) {
  return (missing == Missing::last_block && block == blocks - 1) ||
         (missing == Missing::upper_half && block >= blocks / 2);
}

inline int absent_count(Missing missing, int blocks) {
  int n = 0;
  for (int b = 0; b < blocks; ++b) n += absent(missing, b, blocks);
  return n;
}

// counts[0]: blocks that reached the barrier; [1]: blocks that crossed all rounds; [2]: blocks
// whose barrier gave up (the watchdog).
template <GridBarrier Barrier>
__global__ void partial_sync(unsigned* state, WatchdogArgs watchdog, Missing missing, int rounds,
                             unsigned* counts) {
  if (absent(missing, blockIdx.x, gridDim.x)) return;
  typename Barrier::Block bar(state, watchdog);
  if (threadIdx.x == 0) atomicAdd(&counts[0], 1u);
  for (int r = 0; r < rounds; ++r) {
    if (!bar.sync()) {
      if (threadIdx.x == 0) atomicAdd(&counts[2], 1u);
      return;
    }
  }
  if (threadIdx.x == 0) atomicAdd(&counts[1], 1u);
}

// The same experiment with cg::this_grid().sync(), which has no watchdog. arrived[b] / crossed[b]
// are host-mapped words that block b sets when it reaches the first sync and when it has crossed
// all rounds; the host reads them while the kernel runs.
__global__ void partial_grid_sync(Missing missing, int rounds, volatile unsigned* arrived,
                                  volatile unsigned* crossed) {
  if (absent(missing, blockIdx.x, gridDim.x)) return;
  if (threadIdx.x == 0) {
    arrived[blockIdx.x] = 1;
    __threadfence_system();
  }
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (int r = 0; r < rounds; ++r) grid.sync();
  if (threadIdx.x == 0) {
    crossed[blockIdx.x] = 1;
    __threadfence_system();
  }
}

// Words of pinned host memory mapped into the device's address space (the same address on both
// sides under unified addressing), zero at the start.
class MappedWords {
 public:
  explicit MappedWords(std::size_t n) : n_(n) {
    GB_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&words_), n * sizeof(unsigned),
                                cudaHostAllocMapped));
    std::fill_n(words_, n, 0u);
  }
  MappedWords(const MappedWords&) = delete;
  MappedWords& operator=(const MappedWords&) = delete;
  ~MappedWords() { cudaFreeHost(words_); }
  unsigned* get() const { return words_; }
  // How many words are set, read as the device writes them.
  unsigned set() const {
    unsigned n = 0;
    const volatile unsigned* w = words_;
    for (std::size_t i = 0; i < n_; ++i) n += w[i] != 0;
    return n;
  }

 private:
  std::size_t n_;
  unsigned* words_ = nullptr;
};

struct Outcome {
  int blocks = 0, skipped = 0;
  unsigned arrived = 0, crossed = 0, gave_up = 0;
  bool tripped = false;
  double seconds = 0;
};

template <GridBarrier Barrier>
Outcome run_partial(const RunContext& ctx, int blocks, int threads, Missing missing) {
  DeviceBuffer<unsigned> words(std::max<std::size_t>(1, Barrier::state_words(blocks)));
  DeviceBuffer<unsigned> counts(3);
  DeviceWatchdog watchdog(ctx);
  unsigned* st = words.get();
  WatchdogArgs w = watchdog.args();
  int rounds = kRounds;
  unsigned* c = counts.get();
  void* args[] = {&st, &w, &missing, &rounds, &c};
  const auto t0 = std::chrono::steady_clock::now();
  launch_grid(reinterpret_cast<const void*>(partial_sync<Barrier>), blocks, threads, 0, args);
  const auto t1 = std::chrono::steady_clock::now();
  const std::vector<unsigned> n = counts.to_host();
  Outcome o;
  o.blocks = blocks;
  o.skipped = absent_count(missing, blocks);
  o.arrived = n[0];
  o.crossed = n[1];
  o.gave_up = n[2];
  o.tripped = watchdog.tripped();
  o.seconds = std::chrono::duration<double>(t1 - t0).count();
  return o;
}

// "1 s", "2.5 ms", "84.3 us"
std::string seconds_text(double s) {
  const char* unit = s >= 1 ? "s" : s >= 1e-3 ? "ms" : "us";
  const double scaled = s >= 1 ? s : s >= 1e-3 ? s * 1e3 : s * 1e6;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", scaled, unit);
  return buf;
}

// grid.sync with `missing` blocks absent. A kernel that ends gives its Outcome (tripped: never).
// One still running after the --watchdog is the deadlock: the line that says so goes to stderr
// (the parent's timeout row quotes it) and this call waits until the process is killed; only an
// isolated child gets here (feasible()).
Outcome run_partial_grid_sync(const RunContext& ctx, int blocks, int threads, Missing missing) {
  MappedWords arrived(static_cast<std::size_t>(blocks)), crossed(static_cast<std::size_t>(blocks));
  unsigned* a = arrived.get();
  unsigned* c = crossed.get();
  int rounds = kRounds;
  void* args[] = {&missing, &rounds, &a, &c};
  const auto t0 = std::chrono::steady_clock::now();
  GB_CUDA_CHECK(cudaLaunchCooperativeKernel(
      reinterpret_cast<const void*>(partial_grid_sync), dim3(static_cast<unsigned>(blocks)),
      dim3(static_cast<unsigned>(threads)), args, 0, nullptr));
  const auto deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(ctx.options.watchdog_s));
  cudaError_t state = cudaStreamQuery(nullptr);
  while (state == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    state = cudaStreamQuery(nullptr);
  }
  if (state == cudaErrorNotReady) {
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr,
                 "pitfall.grid.partial-sync: grid.sync with %d of %d blocks skipping it: %u "
                 "reached it, %u crossed all %d rounds, the kernel still running after %s (no "
                 "watchdog reaches a wait inside CUDA: the deadlock); waiting to be killed\n",
                 absent_count(missing, blocks), blocks, arrived.set(), crossed.set(), kRounds,
                 seconds_text(waited).c_str());
    std::fflush(stderr);
    GB_CUDA_CHECK(cudaDeviceSynchronize());  // returns only if the deadlock resolves itself
  } else {
    GB_CUDA_CHECK(state);
  }
  GB_CUDA_CHECK(cudaDeviceSynchronize());
  Outcome o;
  o.blocks = blocks;
  o.skipped = absent_count(missing, blocks);
  o.arrived = arrived.set();
  o.crossed = crossed.set();
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

class PartialSync final : public Method {
 public:
  PartialSync()
      : Method(
            {.name = "pitfall.grid.partial-sync",
             .level = Level::grid,
             .description =
                 "the study's section 8.2: a grid barrier that part of the grid never reaches; the "
                 "software barriers' watchdog ends the wait and the row is timeout, the deadlock "
                 "reproduced without a hang; cg::this_grid().sync() waits where no watchdog "
                 "reaches, so with part of the grid absent it runs only in an isolated child "
                 "(sweep --isolate method|point), killed at --point-timeout: a timeout row; blocks "
                 "that never arrived (check technique)",
             .axes = {
                 {"barrier",
                  {0, 1},
                  {{Which::atomic_sense, "atomic-sense", "gpu.grid.atomic-sense's barrier"},
                   {Which::flag_epoch, "flag-epoch", "gpu.grid.flag-epoch's barrier"},
                   {Which::grid_sync, "grid-sync",
                    "cg::this_grid().sync(), no watchdog: part of the grid absent runs only in an "
                    "isolated child, killed at --point-timeout"}}},
                 {"missing",
                  {0, 1, 2},
                  {{Missing::none, "none", "every block arrives (the control)"},
                   {Missing::last_block, "last-block", "the last block never reaches the barrier"},
                   {Missing::upper_half, "upper-half",
                    "the upper half of the blocks never reaches the barrier"}}},
                 {"blocks_per_sm", {1}},
                 {"threads_per_block", {128}}}}) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const Missing missing = p.choice<Missing>("missing");
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    const bool grid_sync = p.choice<Which>("barrier") == Which::grid_sync;
    if (grid_sync && missing != Missing::none && !ctx.isolated)
      return Usability::no(
          "cg::this_grid().sync() with part of the grid absent never returns and no watchdog "
          "reaches its wait: it runs only in an isolated child (sweep --isolate method|point), "
          "which is killed at --point-timeout");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    if (missing != Missing::none && per_sm * sm_count(ctx.gpus.front()) < 2)
      return Usability::no("a grid of one block cannot be reached by part of it");
    if (grid_sync)
      return blocks_fit("occupancy", per_sm, static_cast<int>(threads), partial_grid_sync);
    return blocks_fit("occupancy", per_sm, static_cast<int>(threads), partial_sync<AtomicSense>,
                      partial_sync<FlagEpoch>);
  }

  std::vector<Measurement> measure(State& state) override {
    const RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int blocks = static_cast<int>(p.at("blocks_per_sm")) * sm_count(ctx.gpus.front());
    const int threads = static_cast<int>(p.at("threads_per_block"));
    const Missing missing = p.choice<Missing>("missing");
    switch (p.choice<Which>("barrier")) {
      case Which::atomic_sense:
        return {row(ctx, AtomicSense::info.name,
                    run_partial<AtomicSense>(ctx, blocks, threads, missing))};
      case Which::flag_epoch:
        return {
            row(ctx, FlagEpoch::info.name, run_partial<FlagEpoch>(ctx, blocks, threads, missing))};
      case Which::grid_sync:
        break;
    }
    return {
        row(ctx, "cg::this_grid().sync()", run_partial_grid_sync(ctx, blocks, threads, missing))};
  }

 private:
  static Measurement row(const RunContext& ctx, std::string_view barrier, const Outcome& o) {
    Measurement m;
    m.metric = Metric::check_never_arrived;
    m.unit = "blocks";
    m.technique = Technique::check;
    m.statistic = Statistic::count;
    m.value = static_cast<double>(o.blocks) - static_cast<double>(o.arrived);
    m.stop = StopReason::fixed;
    const std::string of = " of " + std::to_string(o.blocks) + " blocks";
    const std::string rounds = std::to_string(kRounds);
    const std::string ended = "the kernel ended after " + seconds_text(o.seconds);
    const std::string seen = std::to_string(o.arrived) + of + " reached the barrier, " +
                             std::to_string(o.crossed) + " crossed all " + rounds + " rounds, " +
                             std::to_string(o.gave_up) + " gave up; " + ended;
    const std::string where =
        std::string(barrier) + " with " + std::to_string(o.skipped) + of + " skipping it";
    const bool whole = o.arrived == static_cast<unsigned>(o.blocks) && o.crossed == o.arrived;
    if (o.skipped > 0 && o.tripped) {
      m.status = Status::timeout;
      m.note =
          "part of the grid never arrived, as intended (the deadlock of a grid barrier "
          "reached by part of the grid, reproduced): " +
          watchdog_detail(ctx.options, where) + "; " + seen;
    } else if (o.skipped > 0) {
      // A software barrier let blocks through before its watchdog gave up, or grid.sync returned
      // with part of the grid absent.
      m.status = Status::unverified;
      m.note =
          "barrier check failed: blocks left " + where + " without the watchdog firing; " + seen;
    } else if (o.tripped || !whole) {
      m.status = Status::timeout;
      m.note = "the control timed out: " + watchdog_detail(ctx.options, barrier) + "; " + seen;
    } else {
      m.note = "verified: " + std::to_string(o.arrived) + of +
               " reached the barrier and crossed all " + rounds + " rounds (the control); " + ended;
    }
    return m;
  }
};

}  // namespace
}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::PartialSync)
