// Summary statistics carried by every reported figure: a value is never shown without its spread.
#pragma once

#include <cstddef>
#include <span>

namespace gb {

struct Summary {
  std::size_t count = 0;
  double median = 0, mean = 0, stddev = 0, min = 0, max = 0, p95 = 0, p99 = 0;
  double cv = 0;  // stddev / mean, 0 when the mean is 0

  // Standard error of the mean relative to the mean (the adaptive stopping criterion).
  double relative_standard_error() const;
};

// Percentile by linear interpolation between closest ranks (q in [0, 1]) of sorted data.
double percentile_sorted(std::span<const double> sorted, double q);

// Sample statistics (stddev with n-1); an empty input gives a zero Summary.
Summary summarize(std::span<const double> samples);

}  // namespace gb
