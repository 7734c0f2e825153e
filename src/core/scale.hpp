// Figures converted to another unit after they were taken (per batch -> per kernel, ns ->
// cycles): every figure of a Measurement in its unit, and nothing else, is multiplied.
#pragma once

#include "core/method.hpp"

namespace gb {

// Multiplies value, mean, stddev, min, max, median, p95, p99 and every sample by `factor` (> 0);
// count, cv and the rest stay as they are.
void scale_figures(Measurement& m, double factor);

}  // namespace gb
