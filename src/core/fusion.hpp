// The fusion technique (the study (Zhang, Wahib, Zhang, Matsuoka), section 9.2, Eq. 6): the launch
// overhead that stays hidden while kernels run back to back. Kernels are made of fixed sleep units;
// i launches of j units and j launches of i units do the same work, so their difference is (i - j)
// extra launches:
//   O = (L_ij - L_ji) / (i - j)        (the seed prints the denominator as i - i)
//   sigma = sqrt(s_ij^2 + s_ji^2) / |i - j|   (the same argument as Eq. 8)
#pragma once

#include <functional>

#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb {

// Eq. 6 on one pair of latencies (any unit); gb::UsageError unless i, j >= 1 and i != j.
double fusion_overhead(double l_ij, double l_ji, long i, long j);

// The shortest kernel execution Eq. 6 needs (the study, section 9.2: about 5 us on one GPU,
// about 250 us on 8 GPUs of a DGX-1): with shorter kernels the stream pipeline is not saturated
// and the figure measures the host's launches instead of the hidden overhead.
inline constexpr long kFusionMinKernelNs = 5000;

// Whether a fusion point's axes make sense: 1..1024 threads_per_block, blocks_per_sm >= 1,
// fusion_i != fusion_j both >= 1, unit_ns 1..10^6 (__nanosleep's limit per call), and the
// shorter kernels, min(fusion_i, fusion_j) units of unit_ns, at least kFusionMinKernelNs long.
// Longer units resolve less: a sample's spread grows with the sleep it holds (on H100, 10 units
// of 20000 ns left Eq. 6 unresolved where 10 of 1000 ns resolved it within 2%), so
// kernel.fusion's default is 10 units of 1000 ns, twice the study's floor.
Usability fusion_point_usable(const Point& p);

// `run(launches, units)` enqueues `launches` kernels of `units` sleep units each back to back,
// waits for the last and returns the elapsed seconds. Pairs are sampled interleaved until the
// adaptive criterion stops. One Measurement: metric "launch_overhead", unit "ns", technique
// "fusion", value = Eq. 6 on the means, stddev = sigma, reps_hi = i, reps_lo = j.
Measurement fusion(const RunContext& ctx,
                   const std::function<double(long launches, long units)>& run, long i, long j);

}  // namespace gb
