#include "core/setting_ranges.hpp"

#include <cmath>
#include <cstdio>

namespace gb {

std::string range_violation(const SettingRange& r, double v) {
  const bool low = r.open_lo ? !(v > r.lo) : !(v >= r.lo);
  if (std::isfinite(v) && !low && v <= r.hi) return "";
  char bounds[96];
  std::snprintf(bounds, sizeof bounds, "%s%g and at most %g", r.open_lo ? "above " : "at least ",
                r.lo, r.hi);
  std::string out = "expected " + std::string(r.what) + " " + bounds;
  if (!r.why.empty()) out += " (" + std::string(r.why) + ")";
  return out;
}

}  // namespace gb
