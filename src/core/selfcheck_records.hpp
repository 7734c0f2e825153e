// `gpubarrier selfcheck`'s figures as records, so that they land in the CSV like any method's:
// - selfcheck.fadd.loop: the loop kernel, point repeat_difference=D base_trips=T;
// - selfcheck.fadd.unrolled: the unrolled chains, point repeat_difference=D base_adds=A;
// D = 0 is the base alone. Metric cycles_per_add (cycles), technique clock or differential
// (reps_lo/reps_hi in adds), level kernel: one thread's chain in one kernel, and the
// differential technique times whole kernels, launch included. The judgements go in the note.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/record.hpp"
#include "core/selfcheck_outcome.hpp"

namespace gb::selfcheck {

inline constexpr const char* kLoopMethod = "selfcheck.fadd.loop";
inline constexpr const char* kUnrolledMethod = "selfcheck.fadd.unrolled";
inline constexpr Metric kMetric = Metric::cycles_per_add;

// Records of one selfcheck run on one GPU (`ctx.gpus`), with the run's id and topology class.
class RecordMaker {
 public:
  RecordMaker(const RunContext& ctx, std::string run_id, std::string topology_class)
      : ctx_(ctx), run_id_(std::move(run_id)), topology_(std::move(topology_class)) {}
  Record loop(long difference, long base_trips, const Measurement& m,
              const std::string& note) const;
  Record unrolled(long difference, long base_adds, const Measurement& m,
                  const std::string& note) const;
  // One skipped record per method, e.g. when no GPU is visible.
  std::vector<Record> skipped(const std::string& reason) const;

 private:
  Record make(const char* method, Point point, const Measurement& m, const std::string& note) const;
  const RunContext& ctx_;
  std::string run_id_, topology_;
};

// The notes, in a fixed form that gpubarrier_tools/cli/report.py and gpubarrier_tools/cli/plot.py read back:
// "SM clock 1980 MHz measured"
std::string clock_note(double sm_clock_hz);
// "deviation -1.3%; agreement tolerance (tolerance 5%, or 2 standard errors); SM clock 1980 MHz
// in the pair's kernels" (agreement tolerance, 2se or none: core/selfcheck_analysis.hpp)
std::string agreement_note(const LoopRow& r, double tolerance);
// "8 KiB of code; the base chain" for the reference, else "40 KiB of code; fits the instruction
// cache (+0.1% against the 512-add chain, margin 10%)" or "... overflows the instruction ..."
std::string base_chain_note(long base_adds);
std::string fit_note(long adds, const Figure& clock, const Figure& reference, long base_adds);
// "launch difference +771 cycles (standard error 90); SM clock 1980 MHz measured"
std::string launch_note(const ChainRow& r, double sm_clock_hz);

}  // namespace gb::selfcheck
