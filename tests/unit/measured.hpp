// Measurements made up for the self-check's unit tests.
#pragma once

#include <cmath>
#include <cstddef>

#include "core/method.hpp"

namespace gb::test {

// A Measurement whose figure is `value` with standard error `se` over `n` samples.
inline Measurement measured(double value, double se, std::size_t n = 100) {
  Measurement m;
  m.value = m.stats.mean = m.stats.median = value;
  m.stats.count = n;
  m.stats.stddev = se * std::sqrt(static_cast<double>(n));
  m.stop = StopReason::converged;
  return m;
}

}  // namespace gb::test
