// When a figure is too noisy to trust at face value (results/SCHEMA.md, "Noisy figures"). A
// noisy figure keeps status ok; its note gets "; noisy: <reason>".
#pragma once

#include <string>
#include <string_view>

#include "core/method.hpp"

namespace gb {

// cv (stddev / mean) above which any figure is noisy.
inline constexpr double kNoisyCv = 0.25;
// cv above which a figure whose sampling ran out of time (stop = budget) is noisy.
inline constexpr double kNoisyBudgetCv = 0.05;
// For a value computed on means: the largest |mean - median| / |median| that is not noisy.
inline constexpr double kNoisyMeanMedianGap = 0.10;

// A figure computed on sample means (core/statistic.hpp: computed_on_means) is pulled by
// outliers that the median ignores: its mean and median must agree.

// Why `m` is noisy ("cv 0.31 > 0.25, ..."), or "" when it is not.
std::string noisy_reason(const Measurement& m);

// Appends "; noisy: <reason>" to m.note when m is noisy (status unchanged).
void mark_noisy(Measurement& m);

}  // namespace gb
