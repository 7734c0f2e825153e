// Unresolved figures (results/SCHEMA.md, "Unresolved figures"): a figure computed as a
// difference of two means (statistic eq6, eq7: the fusion and differential techniques)
// whose 95% confidence interval includes zero measured nothing that can be told from zero. It
// is written `unverified`, so that no reader of ok rows takes it, with a note part of its own
// that gives the bound it does establish: "unresolved: 95% interval -99.8..24.4 ns includes
// zero, below 24.4 ns". gpubarrier_tools/data/bounds.py applies the same rule to rows written before.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/method.hpp"

namespace gb {

// The note part's prefix (gpubarrier_tools/data/gbcsv.py figure_excluded recognises it).
inline constexpr const char* kUnresolvedPrefix = "unresolved: ";

// Student's t quantile at 0.975 for `df` >= 1 degrees of freedom: the tables for 1-3, the
// Cornish-Fisher expansion in 1/df from 4 on (within 0.001 of the tables).
double t975(long df);

struct Interval {
  double lo = 0, hi = 0;
};

// value +- t975(samples - 1) x stddev / sqrt(samples); nullopt below two samples or for a value
// or spread that is not finite (or a negative spread).
std::optional<Interval> interval95(double value, double stddev, std::size_t samples);

// Why `m` is unresolved ("95% interval -99.8..24.4 ns includes zero, below 24.4 ns"), or "" when
// it is resolved or not a difference of two means. The interval is of m.value with
// m.stats.stddev (Eq. 8's sigma) over m.stats.count pairs.
std::string unresolved_reason(const Measurement& m);

// An unresolved figure (status ok or unverified) becomes unverified and its note gets
// "; unresolved: <reason>" at its end, a part of its own; returns whether it was unresolved.
bool mark_unresolved(Measurement& m);

}  // namespace gb
