#include "core/back_to_back.hpp"

namespace gb {

Metric back_to_back_metric(Metric barrier_metric) {
  if (barrier_metric == Metric::latency) return Metric::interval;
  if (barrier_metric == Metric::loop_latency) return Metric::loop_interval;
  return barrier_metric;
}

Measurement as_back_to_back(Measurement m) {
  m.metric = back_to_back_metric(m.metric);
  return m;
}

}  // namespace gb
