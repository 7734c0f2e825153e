// Physical bounds of a method's figures (Method::bounds): the base set every method states, and
// their application to a measured figure, which the runner does for every row it writes.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace gb {

// Every time-like metric (latency, loop_latency, latency_cycles, launch_interval,
// launch_overhead, one_way_latency, interval, loop_interval) must be > 0: Method::bounds()'s default.
std::vector<Bound> time_bounds();

// The first bound of `bounds` that `m` lies outside of, as the note's words
// ("<metric> <value> below <min> (<why>)"), or empty when m is within all of them (bounds of
// other metrics do not apply). A NaN figure is outside any bound of its metric.
std::string bound_violation(const std::vector<Bound>& bounds, const Measurement& m);

// Applies `bounds` to a measured figure (status ok or unverified; a timeout, failed or skipped
// figure has no value to judge): outside one, the figure becomes `unverified` and its note
// starts with "outside physical bound: ...", the rest of the note kept after "; ".
// Returns whether the figure was outside a bound.
bool apply_bounds(const std::vector<Bound>& bounds, Measurement& m);

}  // namespace gb
