// The Method interface: one synchronisation technique, its axes, what it needs, how it is run
// and how it proves that it really synchronised. Adding a method = one file + registration.
#pragma once

#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/metric.hpp"
#include "core/statistic.hpp"
#include "core/statistics.hpp"
#include "core/stop_reason.hpp"
#include "core/technique.hpp"
#include "core/timed_instruction.hpp"

namespace gb {

struct RunContext;
class State;

enum class Level { warp, block, cluster, grid, kernel, multi_gpu, multi_node, host };
std::string_view to_string(Level level);

enum class Status { ok, skipped, failed, timeout, unverified };
std::string_view to_string(Status status);

// The enum a method reads a categorical axis as: its values are the axis' codes.
template <class E>
concept AxisEnum = std::is_enum_v<E>;

// A value name and what it means, one sentence: a vocabulary that several methods share, each
// with a code of its own (the orderings of the multi-GPU signals, the device faults, ...).
struct NamedValue {
  std::string_view name;
  std::string_view meaning;
};

// One value of a categorical axis (ordering, variant, fault, ...): the code the method reads, the
// name users write and the CSV's config shows, and what it means. The method that owns the axis
// states all three; a name means one thing on every method that has it (the unit test
// ValueNames.* holds every registered method to that, core/axis_glossary.hpp collects them).
struct ValueName {
  long code;
  std::string_view name;
  std::string_view meaning;

  ValueName(long code, std::string_view name, std::string_view meaning)
      : code(code), name(name), meaning(meaning) {}
  ValueName(long code, NamedValue value) : ValueName(code, value.name, value.meaning) {}
  // The code of a method's enum.
  template <AxisEnum E>
  ValueName(E code, std::string_view name, std::string_view meaning)
      : ValueName(static_cast<long>(code), name, meaning) {}
  template <AxisEnum E>
  ValueName(E code, NamedValue value) : ValueName(static_cast<long>(code), value) {}
};

// A named axis with the values swept by default; `--axis name=...` replaces them. A categorical
// axis names its values: every code the method accepts, and no other (a value it does not name
// is refused where the command line or the sweep file is read, core/axis.hpp); a numeric one
// leaves `names` empty.
struct Axis {
  std::string name;
  std::vector<long> values;
  std::vector<ValueName> names = {};
  std::string_view name_of(long code) const;  // "" for a code without a name
  std::optional<long> code_of(std::string_view value_name) const;
  bool categorical() const { return !names.empty(); }
};

// One configuration: a value per axis, in the method's axis order, and the name of each value of
// a categorical axis (the method reads the code; the text shows the name).
class Point {
 public:
  using Names = std::vector<std::pair<std::string, std::string>>;  // axis, value name
  Point() = default;
  explicit Point(std::vector<std::pair<std::string, long>> values, Names names = {})
      : values_(std::move(values)), names_(std::move(names)) {}
  std::optional<long> find(std::string_view name) const;
  long at(std::string_view name) const;  // throws gb::Error when the axis is missing
  long get(std::string_view name, long fallback) const { return find(name).value_or(fallback); }
  // The value of the categorical axis `name` as the method's enum E, whose codes are the axis'
  // (a value the axis does not name never reaches a point: core/axis.hpp refuses it).
  template <AxisEnum E>
  E choice(std::string_view name) const {
    return static_cast<E>(at(name));
  }
  template <AxisEnum E>
  E choice(std::string_view name, E fallback) const {
    return static_cast<E>(get(name, static_cast<long>(fallback)));
  }
  const std::vector<std::pair<std::string, long>>& values() const { return values_; }
  const Names& names() const { return names_; }
  std::string_view name_of(std::string_view axis) const;  // "" for a value without a name
  // "blocks_per_sm=2 ordering=release-acquire": a categorical value by its name (the CSV's config)
  std::string to_string() const;

 private:
  std::vector<std::pair<std::string, long>> values_;
  Names names_;
};

// Answer to "can this run here?"; the reason is shown to the user and written to the CSV.
struct Usability {
  bool ok = true;
  std::string reason;
  static Usability yes() { return {}; }
  static Usability no(std::string why) { return {false, std::move(why)}; }
};

struct Requirements {
  int min_gpus = 0;  // 0: a host-only method
  int max_gpus = INT_MAX;
  bool mpi_launch = false;  // must be started by mpirun/srun
  // Multi-GPU launch modes: `threads` = one process, one OpenMP thread per GPU;
  // `mpi` = one rank per GPU under mpirun/srun. How gpubarrier was started picks the mode.
  bool threads_mode = false;
  bool mpi_mode = false;
  bool nccl = false;
  bool peer_access = false;
  int min_compute_capability = 0;  // e.g. 90 for clusters

  // A team of GPUs, one per member, in the launch modes given: one process with a thread per GPU
  // (threads) and/or one rank per GPU under mpirun/srun (mpi).
  static Requirements gpu_team(bool threads, bool mpi) {
    Requirements r;
    r.min_gpus = 1;
    r.threads_mode = threads;
    r.mpi_mode = mpi;
    return r;
  }
  // One rank per GPU, and started by mpirun/srun (nothing to measure otherwise).
  static Requirements rank_per_gpu() {
    Requirements r = gpu_team(false, true);
    r.mpi_launch = true;
    return r;
  }

  // One GPU at a time (given several, the runner runs the method on each in turn).
  static Requirements single_gpu(int min_cc = 0) {
    Requirements r;
    r.min_gpus = 1;
    r.max_gpus = 1;
    r.min_compute_capability = min_cc;
    return r;
  }
};

// The outcome of a correctness run: did every participant wait for every other?
struct Verification {
  enum class Result { passed, failed, timeout, not_applicable };
  Result result = Result::not_applicable;
  std::string detail;
  static Verification passed(std::string d = {}) { return {Result::passed, std::move(d)}; }
  static Verification failed(std::string d) { return {Result::failed, std::move(d)}; }
  static Verification timed_out(std::string d) { return {Result::timeout, std::move(d)}; }
  // No check ran; `why` goes into every row's note as "not verified: <why>" (status ok).
  static Verification not_verified(std::string why) {
    return {Result::not_applicable, std::move(why)};
  }
  // Passed when a check kernel counted no failures, else "<count> <what>".
  static Verification from_failures(unsigned count, const std::string& what) {
    return count ? failed(std::to_string(count) + " " + what) : passed();
  }
};

// A physical bound of one of a method's figures: a value of `metric` below `min` (at or below it
// when `min_exclusive`) or above `max` cannot be a measurement of what the method claims, and the
// runner turns such a figure into an `unverified` row that says so (core/bounds.hpp). An open
// side is std::nullopt.
struct Bound {
  Metric metric = Metric::none;
  std::optional<double> min;
  std::optional<double> max;
  std::string why;
  bool min_exclusive = false;  // true: the figure must exceed min (a time is > 0)
};

// One reported figure of one configuration.
struct Measurement {
  Metric metric = Metric::none;  // latency, latency_cycles, throughput, ... (none: no figure)
  // ns, cycles, warp-syncs/ns, ...: a free label, not a category (a method words its own rate
  // units), so no code compares it with a name.
  std::string unit;
  Technique technique = Technique::none;
  Summary stats;
  double value = 0;  // the headline figure (the technique decides: median or Eq. 7)
  // What `value` is, set by the technique: median (clock, host-loop), eq7 (differential: the
  // study's Eq. 7 on the means), eq6 (fusion: Eq. 6 on the means); results/SCHEMA.md.
  Statistic statistic = Statistic::none;
  double sm_clock_hz = 0;  // the SM clock the figure ran at, where measured; 0: not measured
  // Where sm_clock_hz came from: "estimate", "nvml" or "max" (core/sm_clock_choice.hpp); "" where
  // no SM clock was measured.
  std::string sm_clock_source;
  // The per-sample values (in `unit`) the statistics come from: the samples for clock and
  // host-loop, the per-pair estimates for differential and fusion (`--raw`).
  std::vector<double> samples;
  long reps_lo = 0, reps_hi = 0;
  StopReason stop = StopReason::none;
  Status status = Status::ok;
  std::string note;
  // Why the figure's members did not have their CPUs to themselves (core/oversubscription.hpp),
  // "" when nothing says so; a figure with a reason here is noisy whatever its spread.
  std::string contention;
  // The GPUs this figure was measured on when they are a part of the point's (one pair of a
  // pairwise sweep); empty: all of the point's GPUs.
  std::vector<int> gpus;
};

// What a method is, stated once, by designated initializers, where the method is declared:
//
//   Method({.name = "host.<...>", .level = Level::host, .description = "...",
//           .axes = {{"group_size", {2, 4, 8, 16}}}})
//
// A field the aggregate lacks, a misspelt one, does not compile ("no field named ..."), so no
// fact a method states can be lost to a default. A frame's policy (kernels/<level>/detail/) states
// the same aggregate as `static inline const MethodInfo info{...}` but its level, and its frame
// adds its level and its axes before the policy's own (framed below).
struct MethodInfo {
  std::string_view name;  // dotted: gpu.block.syncthreads, multigpu.device.push, ...
  // Required of a method, its frame's for a frame's policy (a Method without one is refused:
  // gb::Error).
  std::optional<Level> level;
  std::string_view description;  // one sentence for `gpubarrier list` and docs/methods.md
  std::vector<Axis> axes = {};
  // A clock-technique method: the instruction its timed region must hold (for every point, or
  // per value of an axis); `gpubarrier schema` states them and the SASS test checks them.
  std::vector<TimedInstruction> timed = {};
  // Physical bounds of its figures beyond every method's (time_bounds(), core/bounds.hpp); the
  // runner reports the first one a figure is outside of, these first.
  std::vector<Bound> bounds = {};
};

// The info of a frame's method: the policy's `info` at the frame's level (a policy that states a
// level of its own is refused: gb::Error), with the frame's axes before the policy's own.
MethodInfo framed(const MethodInfo& policy, Level level, std::vector<Axis> frame_axes = {});

class Method {
 public:
  explicit Method(MethodInfo info);
  virtual ~Method() = default;
  const MethodInfo& info() const { return info_; }
  std::string_view name() const { return info_.name; }
  Level level() const { return *info_.level; }
  std::string_view description() const { return info_.description; }
  const std::vector<Axis>& axes() const { return info_.axes; }
  // The timed instruction of a clock figure at `point`, or nullptr (no clock technique, or none
  // stated for that point).
  const TimedInstruction* timed_at(const Point& point) const;
  virtual Requirements requirements() const { return {}; }

  // Whether the method can run at all in this context. The default checks requirements();
  // override to add reasons (a missing library, a removed CUDA API), calling the base first.
  virtual Usability usable(const RunContext& ctx) const;

  // Whether one configuration can run (occupancy, cluster placement); otherwise a skipped row.
  virtual Usability feasible(const RunContext& ctx, const Point& point) const;

  // A short run that checks the barrier really synchronised. Runs before measure(), on the
  // same State (core/state.hpp): what it builds for the point, measure() finds there.
  virtual Verification verify(State& state);

  virtual std::vector<Measurement> measure(State& state) = 0;

  // The physical bounds of the method's figures, applied by the runner to every measured row: its
  // own (MethodInfo::bounds), then every time-like figure (latency, loop_latency, latency_cycles,
  // launch_interval, launch_overhead, one_way_latency, interval, loop_interval) is positive.
  std::vector<Bound> bounds() const;

 private:
  MethodInfo info_;
};

}  // namespace gb
