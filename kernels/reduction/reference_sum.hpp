// The reductions' input and its exact sum. Element i is 0.5 + h(i) * 2^-32 with h a
// 32-bit hash (core/check_draw.hpp): exactly representable, never zero, the same on host and
// device. The sum is then n/2 + (sum of h) * 2^-32, computed in integers: an exact reference,
// better than a long double or Kahan sum of the same values (and checked against one in
// tests/unit/test_reduction_reference.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/check_draw.hpp"
#include "core/method.hpp"
#include "reduction/data_set.hpp"

namespace gb::reduction {

// Above this many errors in 10^10 a sum is wrong: rows say `unverified`.
constexpr double kMaxRelativeError = 1e-10;

// The exact sum of elements [first, first + count), in long double (exact up to 2^32 elements:
// the integer part needs at most 64 bits).
inline long double reference_sum(std::uint64_t first, std::uint64_t count) {
  std::uint64_t bits = 0;
  for (std::uint64_t i = first; i < first + count; ++i) bits += check_draw(kDataSeed, i);
  return static_cast<long double>(count) * 0.5L + static_cast<long double>(bits) * 0x1p-32L;
}

inline double relative_error(double got, long double exact) {
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / std::fabs(exact));
}

// The bytes axis: whole doubles (the reason of a skipped row otherwise).
inline const char* bytes_refusal(long bytes) {
  return bytes < 8 || bytes % 8 != 0
             ? "bytes must be a positive multiple of 8 (an array of doubles)"
             : nullptr;
}

// "relative error 1.2e-16" for the row's note.
inline std::string error_note(double rel) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "relative error %.2g", rel);
  return buf;
}

// The verdict on one reduction's result: passed, or failed (an `unverified` row) with its error.
// NaN fails too.
inline Verification sum_verdict(double rel) {
  if (!(rel <= kMaxRelativeError))
    return Verification::failed("the sum is wrong: " + error_note(rel) + " > 1e-10");
  return Verification::passed();
}

}  // namespace gb::reduction
