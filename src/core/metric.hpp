// What a figure measures: the CSV's `metric` column (results/SCHEMA.md, "Metrics"), and the
// figure a physical bound (core/bounds.hpp) applies to. The core and the methods set and compare
// the enum; io/ writes its name and reads it back from a child's stream, refusing a name the
// table does not hold.
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb {

enum class Metric {
  none,                 // no figure was obtained (a skipped point): the column stays empty
  latency,              // one barrier, step or launch + synchronise (ns)
  loop_latency,         // one step of a timed loop, by the reference tools' convention (ns)
  interval,             // one call of a batch issued back to back: `latency` of such calls (ns)
  loop_interval,        // the same as a loop mean: `loop_latency` of such calls (ns)
  latency_cycles,       // `latency` from clock64 (cycles)
  throughput,           // barriers completed per unit time
  throughput_cycles,    // the same per SM clock cycle
  launch_interval,      // one empty kernel of a batch launched back to back (ns)
  launch_overhead,      // the launch cost by the study's Eq. 6, fusion (ns)
  one_way_latency,      // one flag signal from one GPU to another (ns)
  check_stale_stamps,   // a device barrier's check under a fault test hook
  check_stale_payload,  // the same check's payload words seen stale
  check_early_release,  // crossings passed before every node had arrived
  check_left_early,     // warp-level trials in which a thread left before another arrived
  check_never_arrived,  // blocks of a grid that never reached the grid barrier
  bandwidth,            // bytes moved per unit time
  bandwidth_cycles,     // the same per SM clock cycle
  cycles_per_add,       // one dependent FP32 add (`gpubarrier selfcheck`)
};

inline constexpr std::array<Named<Metric>, 19> kMetricNames{{
    {Metric::none, ""},
    {Metric::latency, "latency"},
    {Metric::loop_latency, "loop_latency"},
    {Metric::interval, "interval"},
    {Metric::loop_interval, "loop_interval"},
    {Metric::latency_cycles, "latency_cycles"},
    {Metric::throughput, "throughput"},
    {Metric::throughput_cycles, "throughput_cycles"},
    {Metric::launch_interval, "launch_interval"},
    {Metric::launch_overhead, "launch_overhead"},
    {Metric::one_way_latency, "one_way_latency"},
    {Metric::check_stale_stamps, "check_stale_stamps"},
    {Metric::check_stale_payload, "check_stale_payload"},
    {Metric::check_early_release, "check_early_release"},
    {Metric::check_left_early, "check_left_early"},
    {Metric::check_never_arrived, "check_never_arrived"},
    {Metric::bandwidth, "bandwidth"},
    {Metric::bandwidth_cycles, "bandwidth_cycles"},
    {Metric::cycles_per_add, "cycles_per_add"},
}};
constexpr const auto& name_table(Metric) {
  return kMetricNames;
}

}  // namespace gb
