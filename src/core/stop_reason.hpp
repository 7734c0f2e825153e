// Why a figure's sampling stopped: the CSV's `stop` column (results/SCHEMA.md,
// core/adaptive.hpp). A figure that spent its time budget is held to a stricter noise rule
// (core/noisy.hpp).
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb {

enum class StopReason {
  none,       // still sampling, or no figure was obtained: the column stays empty
  converged,  // the relative standard error fell below the target
  budget,     // the time budget (or the most samples a figure keeps) ran out first
  fixed,      // a fixed number of runs, not an adaptive criterion (a check's count)
};

inline constexpr std::array<Named<StopReason>, 4> kStopReasonNames{{
    {StopReason::none, ""},
    {StopReason::converged, "converged"},
    {StopReason::budget, "budget"},
    {StopReason::fixed, "fixed"},
}};
constexpr const auto& name_table(StopReason) {
  return kStopReasonNames;
}

}  // namespace gb
