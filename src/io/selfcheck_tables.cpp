#include "io/selfcheck_tables.hpp"

#include <cctype>
#include <cmath>
#include <string>

namespace gb {
namespace {

using selfcheck::Agreement;
using selfcheck::code_kib;

std::string agreement_text(Agreement a, double tolerance) {
  if (a == Agreement::two_se) return "<2 SE";
  if (a == Agreement::none) return "NO";
  char text[24];  // snprintf, not "<" + to_string: GCC 12 warns falsely (-Wrestrict) on that
  std::snprintf(text, sizeof text, "<%ld%%", std::lround(100 * tolerance));
  return text;
}

void print_loop(std::FILE* out, const selfcheck::Outcome& o) {
  std::fprintf(
      out,
      "Loop kernel: one unrolled body of %ld adds (%.0f KiB), the trip count a run-time argument:"
      "\nR_lo and R_hi run the same code. R_lo = %ld adds (%ld trips), clock %.3f cycles/add.\n",
      o.loop_body, code_kib(o.loop_body), o.base_trips * o.loop_body, o.base_trips,
      o.loop_lo.value);
  std::fprintf(out, "%9s %6s %10s %8s %13s %9s %7s %10s %6s %10s %6s\n", "rep diff", "trips",
               "clock cyc", "samples", "differential", "std err", "pairs", "Eq.8 sigma", "MHz",
               "deviation", "agree");
  for (const selfcheck::LoopRow& r : o.loop)
    std::fprintf(out, "%9ld %6ld %10.3f %8zu %13.3f %9.3f %7zu %10.3f %6.0f %9.1f%% %6s\n",
                 r.difference, r.adds_hi / o.loop_body, r.clock.value, r.clock.samples,
                 r.differential.value, r.differential.se, r.differential.samples, r.sigma,
                 r.clock_hz / 1e6, 100 * r.deviation,
                 agreement_text(r.agreement, o.tolerance).c_str());
  std::fprintf(
      out,
      "MHz: the SM clock inside the pair's kernels (clock64 over %%globaltimer), which turns the\n"
      "differential's ns into cycles.\n"
      "agree: within the tolerance (%.0f%%) or within %.0f standard errors of the difference.\n"
      "\n",
      100 * o.tolerance, selfcheck::kAgreeSe);
}

void print_chains(std::FILE* out, const selfcheck::Outcome& o) {
  std::fprintf(
      out,
      "Instruction-cache scan: unrolled chains, clock technique; fits = within %.0f%% of the\n"
      "%ld-add chain (%.0f KiB, %.3f cycles/add). Differential: hi = the chain, lo = the %ld-add "
      "chain.\n",
      100 * selfcheck::kFitMargin, o.base_adds, code_kib(o.base_adds), o.reference.value,
      o.base_adds);
  std::fprintf(out, "%9s %9s %10s %5s %13s %9s %7s %12s %9s\n", "adds", "code KiB", "clock cyc",
               "fits", "differential", "std err", "pairs", "launch diff", "std err");
  for (const selfcheck::ChainRow& r : o.chains)
    std::fprintf(out, "%9ld %9.0f %10.3f %5s %13.3f %9.3f %7zu %12.0f %9.0f\n", r.adds,
                 code_kib(r.adds), r.clock.value, r.fits ? "yes" : "no", r.differential.value,
                 r.differential.se, r.differential.samples, r.launch.cycles, r.launch.se);
  std::fprintf(
      out,
      "launch diff: cycles of hi minus lo beyond what the clock technique gives the extra adds;\n"
      "a constant there is the two kernels' launch-cost difference, which the differential\n"
      "technique assumes away: the reason the check above runs on the loop kernel.\n\n");
}

}  // namespace

void print_selfcheck(std::FILE* out, const selfcheck::Outcome& o) {
  std::fprintf(out,
               "FP32 add latency, clock technique against the differential technique "
               "(the study's section 9.4)\n");
  std::fprintf(out, "GPU %d: %s, SM clock %.0f MHz measured\n\n", o.gpu, o.gpu_model.c_str(),
               o.sm_clock_hz / 1e6);
  print_loop(out, o);
  print_chains(out, o);
  std::string fit = selfcheck::fit_summary(o);
  fit[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(fit[0])));
  std::fprintf(out, "%s %s.\n%s.\n",
               selfcheck::passed(o) ? "PASS:" : "FAIL:", selfcheck::verdict(o).c_str(),
               fit.c_str());
  std::fflush(out);
}

}  // namespace gb
