// What a figure's `value` is: the CSV's `statistic` column (results/SCHEMA.md). The technique
// sets it; whether it is computed on means decides the noisy rule's mean-median check
// (core/noisy.hpp) and whether a 95% interval can include zero (core/resolution.hpp).
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb {

enum class Statistic {
  none,                   // no figure was obtained (a timeout): the column stays empty
  median,                 // the median of the samples (clock, host-loop, event, globaltimer)
  eq7,                    // the study's Eq. 7 on the means of two repetition counts (differential)
  eq6,                    // the study's Eq. 6 on the means of fused and split launches (fusion)
  count,                  // a count of a check's failures
  loop_mean_avg_ranks,    // a loop's per-step mean, averaged over ranks (OSU's convention)
  loop_mean_max_ranks,    // a loop's per-step mean, the maximum over ranks
  loop_mean_avg_threads,  // a loop's per-step mean, averaged over threads
  loop_mean_max_threads,  // a loop's per-step mean, the maximum over threads (EPCC's convention)
};

inline constexpr std::array<Named<Statistic>, 9> kStatisticNames{{
    {Statistic::none, ""},
    {Statistic::median, "median"},
    {Statistic::eq7, "eq7"},
    {Statistic::eq6, "eq6"},
    {Statistic::count, "count"},
    {Statistic::loop_mean_avg_ranks, "loop-mean-avg-ranks"},
    {Statistic::loop_mean_max_ranks, "loop-mean-max-ranks"},
    {Statistic::loop_mean_avg_threads, "loop-mean-avg-threads"},
    {Statistic::loop_mean_max_threads, "loop-mean-max-threads"},
}};
constexpr const auto& name_table(Statistic) {
  return kStatisticNames;
}

// Whether the statistic is a difference or a ratio of means (Eqs. 6 and 7): its value can sit
// within its own noise of zero.
constexpr bool from_equation(Statistic s) {
  return s == Statistic::eq6 || s == Statistic::eq7;
}

// Whether the statistic is computed on means rather than taken as an order statistic of the
// samples: Eqs. 6 and 7 and every loop mean.
constexpr bool computed_on_means(Statistic s) {
  switch (s) {
    case Statistic::eq6:
    case Statistic::eq7:
    case Statistic::loop_mean_avg_ranks:
    case Statistic::loop_mean_max_ranks:
    case Statistic::loop_mean_avg_threads:
    case Statistic::loop_mean_max_threads:
      return true;
    case Statistic::none:
    case Statistic::median:
    case Statistic::count:
      return false;
  }
  return false;
}

}  // namespace gb
