// What one `gpubarrier selfcheck` found: the loop kernel judged by both techniques at every
// repeat difference, the unrolled chains' instruction-cache scan, and the verdict over them.
// Printers (src/io/selfcheck_*) format it; the CSV gets the same figures as records.
#pragma once

#include <string>
#include <vector>

#include "core/selfcheck_analysis.hpp"

namespace gb::selfcheck {

// The loop kernel at one repeat difference: R_lo and R_hi run the same code.
struct LoopRow {
  long difference = 0, adds_lo = 0, adds_hi = 0;
  Figure clock;         // clock technique at R_hi
  Figure differential;  // Eq. 7 over R_lo and R_hi
  double sigma = 0;     // Eq. 8, per pair: the spread, not the uncertainty of the figure
  double clock_hz = 0;  // the SM clock inside the pair's kernels, which made ns into cycles
  double deviation = 0;
  Agreement agreement = Agreement::none;
};

// Both figures of one repeat difference, judged. `differential` is in cycles (ns_to_cycles).
LoopRow judge_loop(long adds_lo, long adds_hi, const Measurement& clock,
                   const Measurement& differential, double clock_hz, double tolerance);

// One unrolled chain against the base chain (`reference`, kBaseAdds of kernels/selfcheck).
struct ChainRow {
  long difference = 0, adds = 0;
  Figure clock;
  bool fits = false;
  Figure differential;  // hi = this chain, lo = the base chain
  LaunchDifference launch;
};

ChainRow judge_chain(long base_adds, long adds, const Measurement& clock,
                     const Measurement& differential, const Figure& reference);

struct Outcome {
  // What was checked, and how: printers need it, and io cannot see kernels/selfcheck.
  int gpu = 0;
  std::string gpu_model;
  double sm_clock_hz = 0;  // measured before the check
  double tolerance = 0.05;
  long loop_body = 0;   // adds per trip of the loop kernel
  long base_trips = 0;  // R_lo of the loop kernel in trips
  long base_adds = 0;   // the base unrolled chain
  Figure loop_lo;       // the loop kernel at R_lo, clock technique
  Figure reference;     // the base unrolled chain, clock technique
  std::vector<LoopRow> loop;
  std::vector<ChainRow> chains;
};

// True when the techniques agree (within the tolerance or kAgreeSe) at every repeat difference.
bool passed(const Outcome& o);

// One sentence on the loop kernel: where it agrees and how, or where it does not.
std::string verdict(const Outcome& o);

// The first chain that does not fit the instruction cache; null when all fit.
const ChainRow* stops_fitting(const Outcome& o);

// One sentence on where the unrolled chain stops fitting the instruction cache.
std::string fit_summary(const Outcome& o);

}  // namespace gb::selfcheck
