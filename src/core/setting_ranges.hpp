// The ranges of the run settings that the command line, the environment (GPUBARRIER_*) and sweep
// files accept: one table, so that no value one of them refuses is taken by another. NaN and
// infinity lie in no range: a NaN time budget would never run out, an infinite point timeout
// would end every isolated point at once.
#pragma once

#include <string>
#include <string_view>

namespace gb {

struct SettingRange {
  std::string_view key;   // the sweep file's key ("" where sweep files have none)
  std::string_view flag;  // the command line's flag
  std::string_view what;  // what a value is: "seconds", "an integer"
  double lo = 0;
  double hi = 0;
  bool open_lo = false;  // lo itself is outside
  std::string_view why;  // why the lower bound, or ""
};

inline constexpr SettingRange kSamplesRange{
    "samples", "--samples", "an integer", 2, 1e9, false, "statistics need a spread"};
inline constexpr SettingRange kTimeBudgetRange{
    "time_budget", "--time-budget", "seconds", 0, 1e7, true, ""};
inline constexpr SettingRange kRseTargetRange{
    "rse_target", "--rse-target", "a fraction, e.g. 0.01", 0, 1, true, ""};
inline constexpr SettingRange kPointTimeoutRange{
    "point_timeout", "--point-timeout", "seconds", 0, 1e7, true, ""};
inline constexpr SettingRange kWatchdogRange{"", "--watchdog", "seconds", 0, 1e7, true, ""};

// "" when `value` lies in the range; else what is expected, e.g. "expected seconds above 0 and
// at most 1e+07" (with the reason in parentheses where the range has one).
std::string range_violation(const SettingRange& range, double value);

}  // namespace gb
