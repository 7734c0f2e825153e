// pitfall.grid.partial-sync: the study's section 8.2 as an experiment. A grid barrier that part
// of the grid never reaches waits for ever: the study saw grid and multi-grid groups deadlock.
// Here some blocks of a cooperative launch skip a software grid barrier whose spin loops carry
// the in-kernel watchdog (common/watchdog.cuh); the blocks that did arrive wait until the
// watchdog gives up, the kernel ends, and the row is `timeout`, saying that part of the grid never
// arrived: the deadlock reproduced, without a hang. Every block arriving (missing=none) is the
// control: the same barrier then lets every block through.
//
// cg::this_grid().sync() is left out: it waits inside CUDA, where no watchdog reaches, so a
// partial grid would hang the kernel and the process with it. Only killing the process would end
// it, and whether a GPU shared with others comes back cleanly from that is not for a benchmark to
// try.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "grid/atomic_sense.cuh"
#include "grid/detail/grid_barrier.cuh"
#include "grid/flag_epoch.cuh"

namespace gb::grid {
namespace {

constexpr int kRounds = 8;  // barriers per launch: the control crosses a few in a row

enum class Which { atomic_sense = 0, flag_epoch = 1 };
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

class PartialSync final : public Method {
 public:
  std::string_view name() const override { return "pitfall.grid.partial-sync"; }
  Level level() const override { return Level::grid; }
  std::string_view description() const override {
    return "the study's section 8.2: a software grid barrier that part of the grid never "
           "reaches; the watchdog ends the wait and the row is timeout, the deadlock reproduced "
           "without a hang; blocks that never arrived (check technique). "
           "cg::this_grid().sync() is left out: it waits where no watchdog reaches";
  }
  std::vector<Axis> axes() const override {
    return {{"barrier",
             {0, 1},
             {{Which::atomic_sense, "atomic-sense", "gpu.grid.atomic-sense's barrier"},
              {Which::flag_epoch, "flag-epoch", "gpu.grid.flag-epoch's barrier"}}},
            {"missing",
             {0, 1, 2},
             {{Missing::none, "none", "every block arrives (the control)"},
              {Missing::last_block, "last-block", "the last block never reaches the barrier"},
              {Missing::upper_half, "upper-half",
               "the upper half of the blocks never reaches the barrier"}}},
            {"blocks_per_sm", {1}},
            {"threads_per_block", {128}}};
  }
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const Missing missing = p.choice<Missing>("missing");
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    if (missing != Missing::none && per_sm * sm_count(ctx.gpus.front()) < 2)
      return Usability::no("a grid of one block cannot be reached by part of it");
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
    const bool sense = p.choice<Which>("barrier") == Which::atomic_sense;
    const Outcome o = sense ? run_partial<AtomicSense>(ctx, blocks, threads, missing)
                            : run_partial<FlagEpoch>(ctx, blocks, threads, missing);
    return {row(ctx, sense ? AtomicSense::name : FlagEpoch::name, o)};
  }

 private:
  static Measurement row(const RunContext& ctx, std::string_view barrier, const Outcome& o) {
    Measurement m;
    m.metric = "check_never_arrived";
    m.unit = "blocks";
    m.technique = "check";
    m.statistic = "count";
    m.value = static_cast<double>(o.blocks) - static_cast<double>(o.arrived);
    m.stop = "fixed";
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
