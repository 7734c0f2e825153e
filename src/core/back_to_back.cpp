#include "core/back_to_back.hpp"

namespace gb {

std::string back_to_back_metric(const std::string& barrier_metric) {
  if (barrier_metric == "latency") return "interval";
  if (barrier_metric == "loop_latency") return "loop_interval";
  return barrier_metric;
}

Measurement as_back_to_back(Measurement m) {
  m.metric = back_to_back_metric(m.metric);
  return m;
}

}  // namespace gb
