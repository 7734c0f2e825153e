// The reference tools' convention for host figures (results/SCHEMA.md, metric `loop_latency`):
// every member (rank or thread) times a loop of N back-to-back steps after a warm-up and divides
// by N; the members' loop means are then combined as the reference tool does (average or
// maximum), outside the timed loop. Each such loop is one sample of the row.
//
// What the reference tools do (read for this file):
// - OSU `osu_barrier` (OMB, c/mpi/collective/blocking/osu_barrier.c, e.g. github.com/
//   yqin/osu-micro-benchmarks; mpi/collective/osu_barrier.c of the 2016 release): after
//   `skip` untimed barriers each rank adds up MPI_Wtime around every one of `iterations`
//   barriers, divides by `iterations` (its per-rank latency), then MPI_Reduce gives the
//   average (MPI_SUM / numprocs, the reported figure), the minimum and the maximum over ranks.
//   gpubarrier times the loop as a whole: the same mean per step, without the per-call clock
//   reads and with the loop's own overhead (a few ns).
// - nccl-tests (github.com/NVIDIA/nccl-tests, src/common.cu, BenchTime): after `-w` warm-up
//   operations each thread starts a timer, issues `-n` operations, waits for its streams
//   (completeColl), and deltaSec = elapsed / iterations; with `-z 1` every operation waits for
//   its stream and meets the other threads and ranks at a barrier before the next. The ranks'
//   deltaSec are combined by `-a` (default 1: the average over processes x threads by
//   MPI_Allreduce SUM; 2 min, 3 max, 0 rank 0's).
// - EPCC OpenMP syncbench (openmpbench common.c benchmark() and syncbench.c testbar()): the
//   master times outer repetitions of a parallel region running `innerreps` barriers, each
//   after a delay; time per barrier = elapsed / innerreps; mean and sd over the outer
//   repetitions; the overhead subtracts the same loop without the barrier (reference). The
//   master's span covers every thread's loop, so the loop's figure is the slowest thread's:
//   gpubarrier takes the maximum over threads and, with no delay in the loop, subtracts no
//   reference loop.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/adaptive.hpp"
#include "core/agreement.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb {

// How one loop's per-member means become the sample: the average (OSU, nccl-tests -a 1) or the
// maximum (EPCC's master span, nccl-tests -a 3).
enum class LoopCombine { average, maximum };

// What one member of the loop is: an MPI rank or a thread of one process.
enum class LoopMember { rank, thread };

struct LoopConvention {
  LoopCombine combine = LoopCombine::average;
  LoopMember members = LoopMember::rank;
  // loop-mean-avg-ranks, loop-mean-max-threads, ...: the row's `statistic`.
  Statistic statistic() const;
};

// OSU's convention (average over ranks) and EPCC's (maximum over threads).
inline LoopConvention osu_convention() {
  return {LoopCombine::average, LoopMember::rank};
}
inline LoopConvention epcc_convention() {
  return {LoopCombine::maximum, LoopMember::thread};
}

// One loop's figure from every member's loop mean (ns per step): their mean or maximum.
double combine_loop_means(const std::vector<double>& per_member_ns, LoopCombine how);

// Steps per loop for a step of `ns_per_step`: loops of about 1 ms (EPCC's default test time),
// at least 20 steps (nccl-tests' default), at most 100000. Calibration starts at 16 steps.
long loop_steps_for(double ns_per_step);

// The samples of one loop_latency row. Used by one member per process (run_member with an empty
// `sync`) or by every thread of an enclosing parallel region (run_member with a barrier).
class ReferenceLoop {
 public:
  ReferenceLoop(const RunContext& ctx, LoopConvention convention, int local_members);

  // Run by every local member concurrently: warm-up, then loops of steps() calls of `step`
  // followed by `finish` (may be empty: e.g. wait for a stream), timed together, until the
  // adaptive criterion stops. `sync` is a barrier among this process's members (empty for one
  // member). Member 0 combines the members' figures (collective over ranks under MPI).
  // `step` and `finish` must not throw: they meet the other members (their own fallible work
  // guarded, core/agreement.hpp). A member that failed here keeps its failure and runs the
  // loops to the end with the others; settle() raises it.
  void run_member(int member, const std::function<void()>& step,
                  const std::function<void()>& finish, const std::function<void()>& sync);

  // Once every member has left run_member: under MPI the ranks' agreement point; otherwise
  // throws TeamFailure("thread <m> failed: ...") when a member failed.
  void settle() const;

  // One loop's figures of this process's members (ns per step): combines them with every
  // rank's (collective under MPI when ctx.collective), records the sample and says whether to
  // take more. Called by one thread per process, the same number of times on every rank.
  bool add(const std::vector<double>& local_member_ns);

  // Steps per loop: while calibrating, of the next calibration loop.
  long steps() const { return steps_; }
  // One calibration loop of steps() steps, this process's members' figures (ns per step; the
  // slowest member of every rank counts): the loop length doubles until loops last about 1 ms
  // (EPCC's getinnerreps) by the smallest such figure seen, so that one preempted loop cannot
  // shorten it. Collective under MPI. Returns true once steps() is final.
  bool calibrate(const std::vector<double>& local_member_ns);

  // metric loop_latency, unit ns, technique host-loop, value = mean of the samples;
  // reps_hi = steps per loop; note: the members' minimum and maximum loop means.
  Measurement result() const;

 private:
  const RunContext& ctx_;
  LoopConvention convention_;
  std::vector<double> per_member_;       // run_member's shared slots, one per local member
  std::vector<MemberFailure> failures_;  // one per local member
  std::vector<double> samples_, member_min_, member_max_;
  long steps_;
  double fastest_slowest_ns_;  // calibration: the smallest slowest-member figure seen
  AdaptiveStop stop_;
  bool more_ = true;
};

// The loop of one member per process (a rank under MPI, or a single process).
Measurement loop_latency(const RunContext& ctx, const LoopConvention& convention,
                         const std::function<void()>& step,
                         const std::function<void()>& finish = {});

}  // namespace gb
