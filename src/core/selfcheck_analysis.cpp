#include "core/selfcheck_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "core/scale.hpp"

namespace gb::selfcheck {

Figure figure_of(const Measurement& m) {
  const double n = static_cast<double>(std::max<std::size_t>(m.stats.count, 1));
  return {m.value, m.stats.stddev / std::sqrt(n), m.stats.count, m.stop};
}

Measurement ns_to_cycles(Measurement m, double sm_clock_hz) {
  scale_figures(m, sm_clock_hz / 1e9);
  m.unit = "cycles";
  m.sm_clock_hz = sm_clock_hz;
  return m;
}

double deviation(const Figure& differential, const Figure& clock) {
  return differential.value / clock.value - 1;
}

std::string_view to_string(Agreement a) {
  switch (a) {
    case Agreement::tolerance:
      return "tolerance";
    case Agreement::two_se:
      return "2se";
    case Agreement::none:
      break;
  }
  return "none";
}

Agreement judge_agreement(const Figure& differential, const Figure& clock, double tolerance) {
  if (std::fabs(deviation(differential, clock)) <= tolerance) return Agreement::tolerance;
  const double se = std::hypot(differential.se, clock.se);
  if (std::fabs(differential.value - clock.value) <= kAgreeSe * se) return Agreement::two_se;
  return Agreement::none;
}

bool fits_icache(const Figure& chain, const Figure& base) {
  return std::fabs(chain.value / base.value - 1) <= kFitMargin;
}

LaunchDifference launch_difference(const Figure& differential, const Figure& chain_clock, long adds,
                                   const Figure& base_clock, long base_adds) {
  const double extra = static_cast<double>(adds - base_adds);
  const double by_clock = chain_clock.value * static_cast<double>(adds) -
                          base_clock.value * static_cast<double>(base_adds);
  return {differential.value * extra - by_clock, differential.se * extra};
}

double code_kib(long adds) {
  return static_cast<double>(adds) * 16 / 1024;
}

}  // namespace gb::selfcheck
