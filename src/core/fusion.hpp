// The fusion technique (seed 001 section 9.2, Eq. 6): the launch overhead that stays hidden while
// kernels run back to back. Kernels are made of fixed sleep units; i launches of j units and j
// launches of i units do the same work, so their difference is (i - j) extra launches:
//   O = (L_ij - L_ji) / (i - j)        (the seed prints the denominator as i - i)
//   sigma = sqrt(s_ij^2 + s_ji^2) / |i - j|   (the same argument as Eq. 8)
#pragma once

#include <functional>

#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb {

// Eq. 6 on one pair of latencies (any unit); gb::UsageError unless i, j >= 1 and i != j.
double fusion_overhead(double l_ij, double l_ji, long i, long j);

// Whether a fusion point's axes make sense: 1..1024 threads_per_block, blocks_per_sm >= 1,
// fusion_i != fusion_j both >= 1, unit_ns 1..10^6 (__nanosleep's limit per call).
Usability fusion_point_usable(const Point& p);

// `run(launches, units)` enqueues `launches` kernels of `units` sleep units each back to back,
// waits for the last and returns the elapsed seconds. Pairs are sampled interleaved until the
// adaptive criterion stops. One Measurement: metric "launch_overhead", unit "ns", technique
// "fusion", value = Eq. 6 on the means, stddev = sigma, reps_hi = i, reps_lo = j.
Measurement fusion(const RunContext& ctx,
                   const std::function<double(long launches, long units)>& run, long i, long j);

}  // namespace gb
