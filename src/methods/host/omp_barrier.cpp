// host.omp.barrier: `#pragma omp barrier` among T threads of one process, no GPU. The CPU-side
// floor under every host-driven multi-GPU barrier (the study (Zhang, Wahib, Zhang, Matsuoka),
// section 6). Two rows: loop_latency, EPCC syncbench's convention (loop mean, the slowest thread's;
// core/host_loop_reference.hpp), then latency, the per-step distribution (each step's figure the
// slowest thread's).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/adaptive.hpp"
#include "core/host_loop_reference.hpp"
#include "core/oversubscription.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "core/thread_limit.hpp"
#include "runtime/team_binding.hpp"

namespace gb {
namespace {

class OmpBarrier final : public Method {
 public:
  OmpBarrier()
      : Method({.name = "host.omp.barrier",
                .level = Level::host,
                .description = "OpenMP barrier among group_size threads (host-loop: loop mean, max "
                               "over threads, as EPCC syncbench; per step, max over threads)",
                .axes = {{"group_size", {2, 4, 8, 16}}}}) {}

  // A team larger than this process's CPUs runs only when its group_size is named (--axis, a
  // sweep file): then its rows say `noisy: oversubscribed` (core/oversubscription.hpp), as what
  // such a team costs is worth seeing, never an answer; a default value beyond the CPUs is
  // skipped. A team the machine cannot start (core/thread_limit.hpp) is skipped before any of
  // it starts: the runtime would abort the process halfway.
  Usability feasible(const RunContext& ctx, const Point& point) const override {
    const long threads = static_cast<long>(point.at("group_size"));
    if (threads < 2) return Usability::no("group_size must be >= 2 threads");
    const auto cpus = static_cast<long>(process_cpus().size());
    if (cpus > 0 && threads > cpus && !ctx.axis_named("group_size"))
      return Usability::no(std::to_string(threads) + " spinning threads on " +
                           std::to_string(cpus) + " CPUs would time the scheduler, not the " +
                           "barrier: a default group_size beyond this process's CPUs is left " +
                           "out; name it (--axis group_size=" + std::to_string(threads) +
                           ") to measure it anyway, its rows marked noisy");
    // Room kept for the threads the run itself may still start (its clock and watchdog).
    constexpr long kSpare = 16;
    const ThreadRoom room = thread_room();
    if (room.threads >= 0 && threads - 1 + kSpare > room.threads)
      return Usability::no("a team of " + std::to_string(threads) + " threads needs " +
                           std::to_string(threads - 1) + " more than this process has, and it " +
                           "can start " + std::to_string(std::max(0L, room.threads - kSpare)) +
                           " (" + room.limit + ")");
    return Usability::yes();
  }

  Verification verify(State&) override {
    return Verification::not_verified(
        "no check that the OpenMP barrier held every thread until the last arrived (host-only, "
        "nothing stamps the threads' arrival)");
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& point = state.point();
    const int threads = static_cast<int>(point.at("group_size"));
    const TeamBinding binding;
    const CpuShare cpu;
    Measurement loop = loop_row(ctx, binding, threads);
    constexpr int kBatch = 200, kWarmup = 100;
    std::vector<std::vector<double>> per_thread(threads, std::vector<double>(kBatch));
    std::vector<double> samples;
    AdaptiveStop stop(ctx);
    bool more = true;
    // Nothing in this region throws: not the barriers, and the statistics only when memory runs
    // out.
#pragma omp parallel num_threads(threads)
    {
      using clock = std::chrono::steady_clock;
      const int me = omp_get_thread_num();
      const TeamBinding::Pin pin(binding, me);
      for (int i = 0; i < kWarmup; ++i) {
#pragma omp barrier
      }
      while (more) {
        auto& mine = per_thread[me];
        auto t0 = clock::now();
        for (int i = 0; i < kBatch; ++i) {
#pragma omp barrier
          const auto t1 = clock::now();
          mine[i] = std::chrono::duration<double, std::nano>(t1 - t0).count();
          t0 = t1;
        }
#pragma omp barrier
#pragma omp single
        {
          append_slowest(samples, per_thread, kBatch);
          more = stop.more(samples.size(), summarize(samples).relative_standard_error());
        }
      }
    }
    Measurement m = host_loop_result(samples, stop.reason());
    m.note = wait_policy() + "; " + binding.note();
    loop.note += "; " + m.note;
    // Every thread spins in the barrier: the team needs a CPU per thread, and needs to have had
    // them while it was timed.
    std::string contention = oversubscription(ctx, threads, "threads");
    add_reason(contention, cpu_wait(ctx, cpu.of(threads), "threads"));
    m.contention = loop.contention = contention;
    return {loop, m};
  }

 private:
  static std::string wait_policy() {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return std::string("OMP_WAIT_POLICY=") + (policy ? policy : "unset");
  }

  // Each thread times loops of barriers in one parallel region; the orphaned barriers in the
  // lambdas bind to it. A thread that fails keeps meeting the others and the failure is raised
  // after the region (ReferenceLoop::settle): an exception leaving the region would end the
  // process.
  static Measurement loop_row(const RunContext& ctx, const TeamBinding& binding, int threads) {
    ReferenceLoop loop(ctx, epcc_convention(), threads);
    const auto barrier = [] {
#pragma omp barrier
    };
#pragma omp parallel num_threads(threads)
    {
      const TeamBinding::Pin pin(binding, omp_get_thread_num());
      loop.run_member(omp_get_thread_num(), barrier, {}, barrier);
    }
    loop.settle();
    return loop.result();
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::OmpBarrier)
