// Figures of calls issued back to back, none waiting for the one before (an NCCL collective
// enqueued into a stream again and again), timed to the completion of the last call and divided
// by the calls: an interval between calls in a pipeline, not a barrier's latency (from the first
// member's arrival to the last member's release). Their metrics say so (results/SCHEMA.md):
// `interval` for the differential figure and `loop_interval` for the reference tools' loop mean
// (nccl-tests' default, `-z 0`), beside `latency` and `loop_latency` of barriers.
#pragma once

#include "core/method.hpp"

namespace gb {

// latency -> interval, loop_latency -> loop_interval; any other metric unchanged.
Metric back_to_back_metric(Metric barrier_metric);

// The figure with its metric renamed by back_to_back_metric.
Measurement as_back_to_back(Measurement m);

}  // namespace gb
