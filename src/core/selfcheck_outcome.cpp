#include "core/selfcheck_outcome.hpp"

#include <cmath>
#include <cstdio>

namespace gb::selfcheck {
namespace {

std::string percent(double fraction) {
  return std::to_string(std::lround(100 * fraction)) + "%";
}

}  // namespace

LoopRow judge_loop(long adds_lo, long adds_hi, const Measurement& clock,
                   const Measurement& differential, double clock_hz, double tolerance) {
  LoopRow r;
  r.difference = adds_hi - adds_lo;
  r.adds_lo = adds_lo;
  r.adds_hi = adds_hi;
  r.clock = figure_of(clock);
  r.differential = figure_of(differential);
  r.sigma = differential.stats.stddev;
  r.clock_hz = clock_hz;
  r.deviation = deviation(r.differential, r.clock);
  r.agreement = judge_agreement(r.differential, r.clock, tolerance);
  return r;
}

ChainRow judge_chain(long base_adds, long adds, const Measurement& clock,
                     const Measurement& differential, const Figure& reference) {
  ChainRow r;
  r.difference = adds - base_adds;
  r.adds = adds;
  r.clock = figure_of(clock);
  r.fits = fits_icache(r.clock, reference);
  r.differential = figure_of(differential);
  r.launch = launch_difference(r.differential, r.clock, adds, reference, base_adds);
  return r;
}

bool passed(const Outcome& o) {
  for (const LoopRow& r : o.loop)
    if (r.agreement == Agreement::none) return false;
  return true;
}

std::string verdict(const Outcome& o) {
  std::string within_tol, within_se, disagree;
  for (const LoopRow& r : o.loop) {
    std::string& list = r.agreement == Agreement::tolerance ? within_tol
                        : r.agreement == Agreement::two_se  ? within_se
                                                            : disagree;
    list += (list.empty() ? "" : ", ") + std::to_string(r.difference);
  }
  const std::string tol = percent(o.tolerance);
  if (!disagree.empty())
    return "the loop kernel's differential figure disagrees with its clock figure by more than " +
           tol + " and 2 standard errors at repeat difference " + disagree;
  std::string v =
      "the loop kernel's differential figure agrees with its clock figure at every repeat "
      "difference (";
  if (!within_tol.empty()) v += "within " + tol + " at " + within_tol;
  if (!within_tol.empty() && !within_se.empty()) v += "; ";
  if (!within_se.empty()) v += "within 2 standard errors only at " + within_se;
  return v + ")";
}

const ChainRow* stops_fitting(const Outcome& o) {
  for (const ChainRow& r : o.chains)
    if (!r.fits) return &r;
  return nullptr;
}

std::string fit_summary(const Outcome& o) {
  char text[256];
  if (const ChainRow* stops = stops_fitting(o))
    std::snprintf(text, sizeof text,
                  "the unrolled chain stops fitting the instruction cache at %ld adds (%.0f KiB "
                  "of code): %.3f cycles/add against %.3f",
                  stops->adds, code_kib(stops->adds), stops->clock.value, o.reference.value);
  else if (!o.chains.empty())
    std::snprintf(text, sizeof text,
                  "the unrolled chain fits the instruction cache up to %ld adds (%.0f KiB of "
                  "code), the longest compiled in",
                  o.chains.back().adds, code_kib(o.chains.back().adds));
  else
    return "no unrolled chain was measured";
  return text;
}

}  // namespace gb::selfcheck
