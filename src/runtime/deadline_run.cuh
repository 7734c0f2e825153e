// Runs a library's barrier kernel (NCCL's LSA barrier, NVSHMEM's barrier) under a host-side
// deadline: no %globaltimer watchdog reaches inside the library's spin, so the host waits
// --watchdog + 1 ms per crossing for each launch. Past it the GPU is left to the stuck kernel
// (runtime/host_deadline.hpp: skipped from then on), the session keeps every resource the kernel
// still uses (leaked, never torn down under it) and the row is `timeout`. What the session of a
// library barrier shares: multigpu/nccl_lsa.cu and multigpu/nvshmem/barrier.cu own one each.
#pragma once

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/run_context.hpp"
#include "runtime/barrier_memory.cuh"
#include "runtime/host_deadline.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

class DeadlineRun {
 public:
  static constexpr double kSlowCrossingS = 1e-3;  // a thousand times a healthy crossing

  // `library`: whose spin it is, for the timeout row ("NCCL's barrier").
  DeadlineRun(const RunContext& ctx, const Team& team, BarrierMemory& mem, std::string library)
      : ctx_(ctx), team_(team), mem_(mem), library_(std::move(library)) {}

  // `reps` crossings: launch(l, args) starts member l's kernel on team.stream(l) without waiting;
  // this waits for it under the deadline. Seconds from the first launch to the last wait.
  double run(long reps, const std::function<void(int local, BarrierArgs& args)>& launch) {
    budget_s_ = ctx_.options.watchdog_s + static_cast<double>(reps) * kSlowCrossingS;
    std::vector<char> late(static_cast<std::size_t>(team_.local_count()), 0);
    auto any_late = [&] { return std::count(late.begin(), late.end(), 1) > 0; };
    double seconds = 0;
    try {
      seconds = mem_.run(reps, [&](int l, BarrierArgs& a) {
        launch(l, a);
        if (finishes_within(team_.stream(l), budget_s_)) return;
        late[static_cast<std::size_t>(l)] = 1;
        mark_stuck(team_.device(l));
      });
    } catch (...) {  // a member that failed to launch leaves the others' kernels waiting for it
      stuck_ = any_late();
      throw;
    }
    // Every rank learns it: all must leak alike (the barrier memory's teardown is collective).
    stuck_ = ctx_.max_over_ranks(any_late() ? 1.0 : 0.0) > 0;
    return seconds;
  }

  // True once a kernel outlived its deadline: the owner must leak what the kernel still uses.
  bool stuck() const { return stuck_; }

  // {stale stamps, kernels past the deadline, stale payload words}; a stuck kernel's counters
  // mean nothing.
  std::vector<double> problems() const {
    if (stuck_) return {0, 1, 0};
    return mem_.problems();
  }

  std::string timeout_detail() const {
    char budget[32];
    std::snprintf(budget, sizeof budget, "%g s", budget_s_);
    return std::string("host-side deadline (") + budget +
           ": --watchdog + 1 ms per crossing) passed with a kernel still in " + library_ +
           ", where no watchdog reaches; its GPU stays busy with it and is skipped from now on";
  }

 private:
  const RunContext& ctx_;
  const Team& team_;
  BarrierMemory& mem_;
  std::string library_;
  double budget_s_ = 0;
  bool stuck_ = false;
};

}  // namespace gb::mg
