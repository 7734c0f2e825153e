#include "core/scale.hpp"

namespace gb {

void scale_figures(Measurement& m, double factor) {
  Summary& s = m.stats;
  for (double* v : {&m.value, &s.mean, &s.stddev, &s.min, &s.max, &s.median, &s.p95, &s.p99})
    *v *= factor;
  for (double& v : m.samples) v *= factor;
}

}  // namespace gb
