// The judgements of `gpubarrier selfcheck` (the study (Zhang, Wahib, Zhang, Matsuoka), section
// 9.4), as pure functions on figures so that they can be checked with made-up numbers: do the clock
// and the differential technique agree on the FP32 add, and does an unrolled add chain still fit
// the instruction cache?
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/method.hpp"

namespace gb::selfcheck {

// A chain fits the instruction cache while its clock figure stays this close to the base
// chain's: the 8 KiB base chain fits on every GPU, and an overflowing one is 25% slower on H200.
inline constexpr double kFitMargin = 0.10;
// Standard errors within which a deviation beyond the tolerance still agrees: the shortest
// repeat difference is a few microseconds of kernel time against launch jitter of the same size.
inline constexpr double kAgreeSe = 2.0;

// One figure in cycles per add, with the standard error of its mean and the samples behind it.
struct Figure {
  double value = 0, se = 0;
  std::size_t samples = 0;
  StopReason stop = StopReason::none;  // converged or budget (core/adaptive.hpp)
};

// The figure of a Measurement: its value, and its stddev over the root of its sample count (for
// the differential technique stddev is Eq. 8 over pairs, so this is the error of Eq. 7).
Figure figure_of(const Measurement& m);

// A differential Measurement in ns (core/techniques.hpp) in cycles at `sm_clock_hz`: the value
// and every statistic but cv scale alike.
Measurement ns_to_cycles(Measurement m, double sm_clock_hz);

// Relative deviation of the differential figure from the clock figure: +0.05 is 5% above it.
double deviation(const Figure& differential, const Figure& clock);

// How the two techniques agree: within the relative `tolerance`, else within kAgreeSe combined
// standard errors of their difference, else not at all.
enum class Agreement { tolerance, two_se, none };
std::string_view to_string(Agreement a);  // "tolerance", "2se", "none"
Agreement judge_agreement(const Figure& differential, const Figure& clock, double tolerance);

// Whether a chain's clock figure stays within kFitMargin of the base chain's.
bool fits_icache(const Figure& chain, const Figure& base);

// Kernel time of an unrolled chain (`adds`) minus the base chain's (`base_adds`), by the
// differential figure, beyond what the clock technique gives the extra adds: the launch-cost
// difference of two kernels of different code size, which the differential technique assumes
// is zero. The standard error is the differential figure's alone (the clock's is far smaller).
struct LaunchDifference {
  double cycles = 0, se = 0;
};
LaunchDifference launch_difference(const Figure& differential, const Figure& chain_clock, long adds,
                                   const Figure& base_clock, long base_adds);

// The instruction bytes of an unrolled chain on sm_90: 16 per FADD (tests/gpu/test_sass.py).
double code_kib(long adds);

}  // namespace gb::selfcheck
