#include "core/host_loop_reference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/faults.hpp"
#include "errors/errors.hpp"

namespace gb {
namespace {

using clock = std::chrono::steady_clock;

constexpr long kWarmupSteps = 100;  // untimed, then calibration loops (untimed for the row)
constexpr double kLoopTargetNs = 1e6;
constexpr long kFirstCalibrationSteps = 16, kMinLoopSteps = 20, kMaxLoopSteps = 100000;

// ns per step of `steps` calls of `step` and then `finish`, timed as one span.
double time_loop(const std::function<void()>& step, const std::function<void()>& finish,
                 long steps) {
  const auto t0 = clock::now();
  for (long i = 0; i < steps; ++i) step();
  if (finish) finish();
  return std::chrono::duration<double, std::nano>(clock::now() - t0).count() /
         static_cast<double>(steps);
}

std::string format_ns(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", ns);
  return text;
}

double mean_of(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

Statistic LoopConvention::statistic() const {
  const bool average = combine == LoopCombine::average;
  if (members == LoopMember::thread)
    return average ? Statistic::loop_mean_avg_threads : Statistic::loop_mean_max_threads;
  return average ? Statistic::loop_mean_avg_ranks : Statistic::loop_mean_max_ranks;
}

double combine_loop_means(const std::vector<double>& per_member_ns, LoopCombine how) {
  if (per_member_ns.empty()) throw Error("combine_loop_means: no member figures");
  if (how == LoopCombine::maximum)
    return *std::max_element(per_member_ns.begin(), per_member_ns.end());
  return mean_of(per_member_ns);
}

long loop_steps_for(double ns_per_step) {
  if (!(ns_per_step > 0)) return kMaxLoopSteps;
  const double steps = std::ceil(kLoopTargetNs / ns_per_step);
  return static_cast<long>(std::clamp(steps, double(kMinLoopSteps), double(kMaxLoopSteps)));
}

ReferenceLoop::ReferenceLoop(const RunContext& ctx, LoopConvention convention, int local_members)
    : ctx_(ctx),
      convention_(std::move(convention)),
      per_member_(static_cast<std::size_t>(std::max(local_members, 1))),
      failures_(per_member_.size()),
      steps_(kFirstCalibrationSteps),
      fastest_slowest_ns_(HUGE_VAL),
      stop_(ctx) {}

bool ReferenceLoop::calibrate(const std::vector<double>& local_member_ns) {
  const double slowest =
      ctx_.max_over_ranks(*std::max_element(local_member_ns.begin(), local_member_ns.end()));
  fastest_slowest_ns_ = std::min(fastest_slowest_ns_, slowest);
  const long target = loop_steps_for(fastest_slowest_ns_);
  if (steps_ >= target) {
    steps_ = target;
    return true;
  }
  steps_ = std::min(steps_ * 2, target);
  return false;
}

bool ReferenceLoop::add(const std::vector<double>& local_member_ns) {
  // Every rank's members, in rank order: the combination the reference tool does after its
  // loop (MPI_Reduce / MPI_Allreduce), never inside the timed span.
  const std::vector<double> all =
      ctx_.collective ? ctx_.launch.gather(local_member_ns) : local_member_ns;
  samples_.push_back(combine_loop_means(all, convention_.combine));
  member_min_.push_back(*std::min_element(all.begin(), all.end()));
  member_max_.push_back(*std::max_element(all.begin(), all.end()));
  return stop_.more(samples_.size(), summarize(samples_).relative_standard_error());
}

void ReferenceLoop::run_member(int member, const std::function<void()>& step,
                               const std::function<void()>& finish,
                               const std::function<void()>& sync) {
  auto meet = [&] {
    if (sync) sync();
  };
  auto& mine = per_member_.at(static_cast<std::size_t>(member));
  // Nothing below may throw past a barrier (the step's own work is guarded by its caller), so a
  // failure here is kept and this member goes on meeting the others. Its number for the test
  // fault: the rank under mpirun (one member per rank; a method run on rank 0 alone has none),
  // else the thread.
  const int id = !ctx_.launch.under_mpi ? member : ctx_.collective ? ctx_.launch.rank : -1;
  failures_.at(static_cast<std::size_t>(member)).guard([&] { faults::throw_if_named(id); });
  time_loop(step, finish, kWarmupSteps);
  // Calibration, then sampling: every loop starts together (ranks and threads) and its
  // figures are combined after it, outside the timed span.
  auto one_loop = [&] {
    if (member == 0 && ctx_.collective) ctx_.launch.barrier();
    meet();
    mine = time_loop(step, finish, steps_);
    meet();
  };
  bool calibrating = true;
  while (calibrating) {
    one_loop();
    if (member == 0) more_ = !calibrate(per_member_);
    meet();
    calibrating = more_;
    meet();  // every member has read more_ before member 0 writes it again
  }
  if (member == 0) more_ = true;
  meet();
  while (true) {
    one_loop();
    if (member == 0) more_ = add(per_member_);
    meet();
    const bool more = more_;
    meet();
    if (!more) break;
  }
}

void ReferenceLoop::settle() const {
  gb::settle(ctx_, failures_, [](int m) { return "thread " + std::to_string(m); });
}

Measurement ReferenceLoop::result() const {
  Measurement m;
  m.metric = Metric::loop_latency;
  m.unit = "ns";
  m.technique = Technique::host_loop;
  m.statistic = convention_.statistic();
  m.stats = summarize(samples_);
  m.value = m.stats.mean;
  m.samples = samples_;
  m.reps_hi = steps_;
  m.stop = stop_.reason();
  const std::string per = convention_.members == LoopMember::thread ? "per-thread" : "per-rank";
  m.note = per + " loop means min " + format_ns(mean_of(member_min_)) + " ns, max " +
           format_ns(mean_of(member_max_)) + " ns (" + std::to_string(steps_) + " steps a loop)";
  return m;
}

Measurement loop_latency(const RunContext& ctx, const LoopConvention& convention,
                         const std::function<void()>& step, const std::function<void()>& finish) {
  ReferenceLoop loop(ctx, convention, 1);
  loop.run_member(0, step, finish, {});
  loop.settle();
  return loop.result();
}

}  // namespace gb
