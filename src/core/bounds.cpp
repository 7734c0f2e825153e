#include "core/bounds.hpp"

#include <cstdio>

namespace gb {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::vector<Bound> time_bounds() {
  std::vector<Bound> b;
  for (Metric metric :
       {Metric::latency, Metric::loop_latency, Metric::latency_cycles, Metric::launch_interval,
        Metric::launch_overhead, Metric::one_way_latency, Metric::interval, Metric::loop_interval})
    b.push_back({metric, 0.0, std::nullopt, "a time is above zero", true});
  return b;
}

std::vector<Bound> Method::bounds() const {
  std::vector<Bound> b = info_.bounds;
  for (Bound& t : time_bounds()) b.push_back(std::move(t));
  return b;
}

std::string bound_violation(const std::vector<Bound>& bounds, const Measurement& m) {
  const double v = m.value;
  for (const Bound& b : bounds) {
    if (b.metric != m.metric) continue;
    const std::string what = std::string(name_of(m.metric)) + " " + number(v);
    if (b.min && (b.min_exclusive ? !(v > *b.min) : !(v >= *b.min)))
      return what + (b.min_exclusive ? " at or below " : " below ") + number(*b.min) + " (" +
             b.why + ")";
    if (b.max && !(v <= *b.max)) return what + " above " + number(*b.max) + " (" + b.why + ")";
  }
  // A clock figure in ns is its latency_cycles twin at the measured SM clock: the lower cycle
  // bounds hold for it in cycles (a sub-cycle dependent load is as impossible in ns).
  if (m.metric == Metric::latency && m.technique == Technique::clock && m.sm_clock_hz > 0) {
    const double cycles = v * m.sm_clock_hz / 1e9;
    for (const Bound& b : bounds)
      if (b.metric == Metric::latency_cycles && b.min && *b.min > 0 && !(cycles >= *b.min))
        return "latency " + number(v) + " ns is " + number(cycles) + " cycles at " +
               number(m.sm_clock_hz / 1e6) + " MHz, below " + number(*b.min) + " (" + b.why + ")";
  }
  return {};
}

bool apply_bounds(const std::vector<Bound>& bounds, Measurement& m) {
  if (m.status != Status::ok && m.status != Status::unverified) return false;
  const std::string why = bound_violation(bounds, m);
  if (why.empty()) return false;
  m.status = Status::unverified;
  m.note = "outside physical bound: " + why + (m.note.empty() ? "" : "; " + m.note);
  return true;
}

}  // namespace gb
