#include "core/resolution.hpp"

#include <cmath>
#include <cstdio>

namespace gb {
namespace {

std::string three_digits(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

double t975(long df) {
  if (df <= 1) return 12.7062;
  if (df == 2) return 4.30265;
  if (df == 3) return 3.18245;
  const double z = 1.959963984540054, v = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v) +
         (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v);
}

std::optional<Interval> interval95(double value, double stddev, std::size_t samples) {
  if (samples < 2 || !std::isfinite(value) || !std::isfinite(stddev) || stddev < 0)
    return std::nullopt;
  const double half =
      t975(static_cast<long>(samples) - 1) * stddev / std::sqrt(static_cast<double>(samples));
  return Interval{value - half, value + half};
}

std::string unresolved_reason(const Measurement& m) {
  if (!from_equation(m.statistic)) return {};
  const std::optional<Interval> ci = interval95(m.value, m.stats.stddev, m.stats.count);
  if (!ci || !(ci->lo <= 0.0 && 0.0 <= ci->hi)) return {};
  const std::string hi = three_digits(ci->hi) + " " + m.unit;
  return "95% interval " + three_digits(ci->lo) + ".." + hi + " includes zero, below " + hi;
}

bool mark_unresolved(Measurement& m) {
  if (m.status != Status::ok && m.status != Status::unverified) return false;
  const std::string why = unresolved_reason(m);
  if (why.empty()) return false;
  m.status = Status::unverified;
  m.note += (m.note.empty() ? "" : "; ") + std::string(kUnresolvedPrefix) + why;
  return true;
}

}  // namespace gb
