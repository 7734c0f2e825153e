#include "core/selfcheck_records.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace gb::selfcheck {
namespace {

// No registered Method produces these figures (`run` cannot select them), so the records name
// their method themselves: one GPU, level kernel (see the header).
MethodId method_id(const char* name) {
  return {name, Level::kernel, 1};
}

std::string mhz(double hz) {
  return std::to_string(std::lround(hz / 1e6)) + " MHz";
}

}  // namespace

Record RecordMaker::make(const char* method, Point point, const Measurement& m,
                         const std::string& note) const {
  Measurement figure = m;
  figure.metric = kMetric;
  figure.note = note;
  return with_figure(
      make_record(ctx_, run_id_, method_id(method), point, topology_, Status::ok, note), figure);
}

Record RecordMaker::loop(long difference, long base_trips, const Measurement& m,
                         const std::string& note) const {
  return make(kLoopMethod, Point({{"repeat_difference", difference}, {"base_trips", base_trips}}),
              m, note);
}

Record RecordMaker::unrolled(long difference, long base_adds, const Measurement& m,
                             const std::string& note) const {
  return make(kUnrolledMethod, Point({{"repeat_difference", difference}, {"base_adds", base_adds}}),
              m, note);
}

std::vector<Record> RecordMaker::skipped(const std::string& reason) const {
  std::vector<Record> out;
  for (const char* method : {kLoopMethod, kUnrolledMethod})
    out.push_back(
        make_record(ctx_, run_id_, method_id(method), {}, topology_, Status::skipped, reason));
  return out;
}

std::string clock_note(double sm_clock_hz) {
  return "SM clock " + mhz(sm_clock_hz) + " measured";
}

std::string agreement_note(const LoopRow& r, double tolerance) {
  char text[200];
  std::snprintf(text, sizeof text,
                "deviation %+.1f%%; agreement %s (tolerance %ld%%, or %.0f standard errors); SM "
                "clock %s in the pair's kernels",
                100 * r.deviation, std::string(to_string(r.agreement)).c_str(),
                std::lround(100 * tolerance), kAgreeSe, mhz(r.clock_hz).c_str());
  return text;
}

std::string base_chain_note(long base_adds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f KiB of code; the base chain", code_kib(base_adds));
  return text;
}

std::string fit_note(long adds, const Figure& clock, const Figure& reference, long base_adds) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%.0f KiB of code; %s the instruction cache (%+.1f%% against the %ld-add chain, "
                "margin %.0f%%)",
                code_kib(adds), fits_icache(clock, reference) ? "fits" : "overflows",
                100 * (clock.value / reference.value - 1), base_adds, 100 * kFitMargin);
  return text;
}

std::string launch_note(const ChainRow& r, double sm_clock_hz) {
  char text[160];
  std::snprintf(text, sizeof text, "launch difference %+.0f cycles (standard error %.0f); %s",
                r.launch.cycles, r.launch.se, clock_note(sm_clock_hz).c_str());
  return text;
}

}  // namespace gb::selfcheck
