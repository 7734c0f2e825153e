#include "methods/legacy/figures.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/adaptive.hpp"
#include "core/fusion.hpp"
#include "core/techniques.hpp"
#include "core/watchdog.hpp"

namespace gb::legacy {
namespace {

constexpr long kCheckCrossings = 64;  // as the device barriers' check (README, "Methods")
constexpr long kHostLoopWarmup = 50;  // as core/host_loop.cpp and runtime/team_host_loop.cpp
constexpr long kHostLoopBatch = 100;

// Runs `part` on the point's session. A helper that says `unsupported` skips the point, one
// that overruns its deadline gives `on_timeout(why)`; any other failure reaches the runner.
template <class Part, class OnTimeout>
auto with_session(State& state, const Shape& shape, Part&& part, OnTimeout&& on_timeout)
    -> decltype(part(std::declval<Session&>())) {
  try {
    Session* s = session_of(state, shape);
    if (!s) return {};
    return part(*s);
  } catch (const Unsupported& e) {
    state.skip(e.what());
    return {};
  } catch (const HelperTimeout& e) {
    return on_timeout(std::string(e.what()));
  }
}

std::string shape_note(const Session& s) {
  return std::to_string(s.gpus()) + " GPUs x " + std::to_string(s.blocks()) +
         " blocks; gpubarrier-legacy, " + s.versions();
}

Verification timed_out(const std::string& why) {
  return Verification::timed_out(why);
}

auto timeout_row(Metric metric, Technique technique) {
  return [=](const std::string& why) -> std::vector<Measurement> {
    return {timeout_measurement(metric, "ns", technique, why)};
  };
}

// A check of kCheckCrossings crossings: passed when `count` (a Session check) finds nothing,
// else failed with "<n><what><crossings><unit>".
Verification verify_by(State& state, const Shape& shape, long (Session::*count)(long),
                       const char* what, const char* unit) {
  return with_session(
      state, shape,
      [&](Session& s) {
        const long bad = (s.*count)(kCheckCrossings);
        if (!bad) return Verification::passed();
        return Verification::failed(std::to_string(bad) + what + std::to_string(kCheckCrossings) +
                                    unit);
      },
      timed_out);
}

// Host-loop figures from per-step times (ns) that `batch(warmup, steps)` takes in the helper:
// kHostLoopWarmup untimed steps, then batches of kHostLoopBatch until the adaptive criterion
// stops.
Measurement host_loop_batches(State& state,
                              const std::function<std::vector<double>(long, long)>& batch) {
  std::vector<double> samples;
  AdaptiveStop stop(state.ctx());
  long warmup = kHostLoopWarmup;
  do {
    const std::vector<double> ns = batch(warmup, kHostLoopBatch);
    samples.insert(samples.end(), ns.begin(), ns.end());
    warmup = 0;
  } while (stop.more(samples.size(), summarize(samples).relative_standard_error()));
  return host_loop_result(samples, stop.reason());
}

}  // namespace

Verification verify_multi_grid(State& state, const Shape& shape) {
  return verify_by(state, shape, &Session::check, " stale stamps seen after the sync in ",
                   " crossings");
}

std::vector<Measurement> measure_multi_grid(State& state, const Shape& shape) {
  return with_session(
      state, shape,
      [&](Session& s) -> std::vector<Measurement> {
        Measurement m = differential(state.ctx(), [&](long reps) { return s.sync(reps); });
        m.note = shape_note(s);
        return {m};
      },
      timeout_row(Metric::latency, Technique::differential));
}

Verification verify_real_launch(State& state, const Shape& shape) {
  return verify_by(state, shape, &Session::launch_check,
                   " GPU stamps missing when the wait returned, in ", " launches");
}

std::vector<Measurement> measure_real_launch(State& state, const Shape& shape) {
  return with_session(
      state, shape,
      [&](Session& s) -> std::vector<Measurement> {
        Measurement m = host_loop_batches(
            state, [&](long warmup, long steps) { return s.launch(warmup, steps); });
        m.note = "cudaLaunchCooperativeKernelMultiDevice; " + shape_note(s);
        return {m};
      },
      timeout_row(Metric::latency, Technique::host_loop));
}

Verification verify_reduction(
    State& state, const Shape& shape, long bytes,
    const std::function<Verification(const Session::ReductionResult&)>& judge) {
  return with_session(
      state, shape, [&](Session& s) { return judge(s.reduce_check(bytes)); }, timed_out);
}

std::vector<Measurement> measure_reduction(State& state, const Shape& shape, long bytes) {
  return with_session(
      state, shape,
      [&](Session& s) -> std::vector<Measurement> {
        Measurement m = host_loop_batches(
            state, [&](long warmup, long steps) { return s.reduce(bytes, warmup, steps); });
        m.note = "this_multi_grid().sync(); gpubarrier-legacy, " + s.versions();
        return {m};
      },
      timeout_row(Metric::latency, Technique::host_loop));
}

std::vector<Measurement> measure_multi_device_fusion(State& state, const Shape& shape, long i,
                                                     long j) {
  return with_session(
      state, shape,
      [&](Session& s) -> std::vector<Measurement> {
        Measurement m = fusion(
            state.ctx(), [&](long launches, long units) { return s.fuse(launches, units); }, i, j);
        m.note = std::to_string(i) + " multi-device launches x " + std::to_string(j) +
                 " units against the converse, " + std::to_string(shape.unit_ns) + " ns units; " +
                 shape_note(s);
        return {m};
      },
      timeout_row(Metric::launch_overhead, Technique::fusion));
}

}  // namespace gb::legacy
