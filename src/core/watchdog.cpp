#include "core/watchdog.hpp"

#include <cmath>
#include <cstdio>

namespace gb {

std::uint64_t watchdog_budget_ns(const RunOptions& options) {
  const double s = options.watchdog_s;
  // The upper bound keeps the conversion exact and a typo (hours) from freezing a sweep.
  if (!std::isfinite(s) || s <= 0 || s > 3600)
    throw UsageError("--watchdog must be within (0, 3600] seconds, got " + std::to_string(s));
  return static_cast<std::uint64_t>(std::llround(s * 1e9));
}

std::string watchdog_detail(const RunOptions& options, std::string_view where) {
  char budget[32];
  std::snprintf(budget, sizeof budget, "%g s", options.watchdog_s);
  return std::string(where) + ": a block waited longer than the " + budget +
         " watchdog at the barrier (not every block arrived) and the kernel gave up";
}

Measurement timeout_measurement(Metric metric, std::string unit, Technique technique,
                                std::string detail) {
  Measurement m;
  m.metric = metric;
  m.unit = std::move(unit);
  m.technique = technique;
  m.status = Status::timeout;
  m.note = std::move(detail);
  return m;
}

}  // namespace gb
