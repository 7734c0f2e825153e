// `gpubarrier selfcheck`: do the two techniques that every in-SM and inter-SM figure rests on
// agree on this GPU? Seed 001 section 9.4 checked its differential technique (Eqs. 7-8) against
// Wong's clock technique on the FP32 add; this repeats that at repeat differences 2048..51200.
//
// The check runs on the loop kernel (kernels/selfcheck/add_chain.hpp): R_lo and R_hi execute
// the same function and differ only in trips, so the differential technique's assumption that
// more repetitions add no launch cost holds. The unrolled chains of seed 001 break it: the hi
// and lo kernels differ in code size and hence in launch cost, a constant that dominates at
// small repeat differences. They are kept for what they are good for, finding where the chain
// stops fitting the instruction cache, judged by the clock technique alone; their differential
// figure is shown beside it with the launch-cost difference it implies.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "common/sm_clock.hpp"
#include "core/errors.hpp"
#include "core/techniques.hpp"
#include "selfcheck/add_chain.hpp"

namespace gb::cli {
namespace {

// A chain fits the instruction cache while its clock figure stays this close to the base
// chain's: the 8 KiB base chain fits on every GPU, and an overflowing one is 25% slower on H200.
constexpr double kFitMargin = 0.10;
// Standard errors within which a deviation beyond the tolerance still agrees: the shortest
// repeat difference is a few microseconds of kernel time against launch jitter of the same size.
constexpr double kAgreeSe = 2.0;

struct SelfcheckArgs {
  std::string gpu;  // empty: the first visible GPU
  double tolerance = 0.05;
  long base_trips = selfcheck::kLoopBaseAdds / selfcheck::kLoopBody;  // R_lo of the loop kernel
  RunOptions options;
};

// One figure in cycles per add, with the standard error of its mean and the samples behind it.
struct Figure {
  double value = 0, se = 0;
  std::size_t samples = 0;
  std::string stop;  // "converged" or "budget" (core/adaptive.hpp)
};

struct LoopRow {
  long difference = 0, adds_hi = 0;
  Figure clock;         // clock technique, the loop kernel at R_hi
  Figure differential;  // Eq. 7, the loop kernel at R_lo and R_hi
  double sigma = 0;     // Eq. 8, per pair: the spread, not the uncertainty of the figure
  double clock_hz = 0;  // the SM clock inside the pair's kernels (clock64 over %globaltimer)
  double deviation = 0;
  std::string agreement;  // "tolerance", "2se" or "none"
};

struct CacheRow {
  long difference = 0, adds = 0;
  Figure clock;
  bool fits = false;
  Figure differential;  // hi = this chain, lo = the base chain
  // Kernel time of hi minus lo beyond what the clock technique gives the extra adds, and its
  // standard error: the launch-cost difference of two kernels of different code size.
  double launch_cycles = 0, launch_se = 0;
};

// The instruction bytes of an unrolled chain on sm_90: 16 per FADD.
double code_kib(long adds) {
  return static_cast<double>(adds) * 16 / 1024;
}

long trips(long adds) {
  return adds / selfcheck::kLoopBody;
}

Figure clock_figure(const std::vector<Measurement>& ms) {
  const Measurement& c = ms.front();  // "latency_cycles"
  return {c.value, c.stats.stddev / std::sqrt(double(std::max<std::size_t>(c.stats.count, 1))),
          c.stats.count, c.stop};
}

// differential() reports ns; its stats.stddev is Eq. 8 over stats.count pairs.
Figure differential_figure(const Measurement& m, double hz) {
  const double to_cycles = hz / 1e9;
  const auto n = std::max<std::size_t>(m.stats.count, 1);
  return {m.value * to_cycles, m.stats.stddev * to_cycles / std::sqrt(double(n)), m.stats.count,
          m.stop};
}

std::string agreement_text(const std::string& a, double tolerance) {
  if (a == "tolerance") return "<" + std::to_string(std::lround(100 * tolerance)) + "%";
  if (a == "2se") return "<2 SE";
  return "NO";
}

void print_tables(const std::vector<LoopRow>& loop, const std::vector<CacheRow>& cache,
                  const Figure& loop_lo, const Figure& reference, const SelfcheckArgs& args,
                  int device, const std::string& gpu_model, double hz) {
  std::printf(
      "FP32 add latency, clock technique against the differential technique "
      "(seed 001 section 9.4)\n");
  std::printf("GPU %d: %s, SM clock %.0f MHz measured\n\n", device, gpu_model.c_str(),
              hz / 1e6);

  std::printf(
      "Loop kernel: one unrolled body of %ld adds (%.0f KiB), the trip count a run-time argument:"
      "\nR_lo and R_hi run the same code. R_lo = %ld adds (%ld trips), clock %.3f cycles/add.\n",
      selfcheck::kLoopBody, code_kib(selfcheck::kLoopBody), args.base_trips * selfcheck::kLoopBody,
      args.base_trips, loop_lo.value);
  std::printf("%9s %6s %10s %8s %13s %9s %7s %10s %6s %10s %6s\n", "rep diff", "trips",
              "clock cyc", "samples", "differential", "std err", "pairs", "Eq.8 sigma", "MHz",
              "deviation", "agree");
  for (const LoopRow& r : loop)
    std::printf("%9ld %6ld %10.3f %8zu %13.3f %9.3f %7zu %10.3f %6.0f %9.1f%% %6s\n",
                r.difference, trips(r.adds_hi), r.clock.value, r.clock.samples,
                r.differential.value, r.differential.se, r.differential.samples, r.sigma,
                r.clock_hz / 1e6, 100 * r.deviation,
                agreement_text(r.agreement, args.tolerance).c_str());
  std::printf(
      "MHz: the SM clock inside the pair's kernels (clock64 over %%globaltimer), which turns the\n"
      "differential's ns into cycles.\n"
      "agree: within the tolerance (%.0f%%) or within %.0f standard errors of the difference.\n"
      "\n",
      100 * args.tolerance, kAgreeSe);

  std::printf(
      "Instruction-cache scan: unrolled chains, clock technique; fits = within %.0f%% of the\n"
      "%ld-add chain (%.0f KiB, %.3f cycles/add). Differential: hi = the chain, lo = the %ld-add "
      "chain.\n",
      100 * kFitMargin, selfcheck::kBaseAdds, code_kib(selfcheck::kBaseAdds), reference.value,
      selfcheck::kBaseAdds);
  std::printf("%9s %9s %10s %5s %13s %9s %7s %12s %9s\n", "adds", "code KiB", "clock cyc", "fits",
              "differential", "std err", "pairs", "launch diff", "std err");
  for (const CacheRow& r : cache)
    std::printf("%9ld %9.0f %10.3f %5s %13.3f %9.3f %7zu %12.0f %9.0f\n", r.adds,
                code_kib(r.adds), r.clock.value, r.fits ? "yes" : "no", r.differential.value,
                r.differential.se, r.differential.samples, r.launch_cycles, r.launch_se);
  std::printf(
      "launch diff: cycles of hi minus lo beyond what the clock technique gives the extra adds;\n"
      "a constant there is the two kernels' launch-cost difference, which the differential\n"
      "technique assumes away: the reason the check above runs on the loop kernel.\n\n");
}

void selfcheck(const SelfcheckArgs& args, const GlobalOptions& global) {
  if (args.tolerance <= 0 || args.tolerance >= 1)
    throw UsageError("--tolerance must be within (0, 1), e.g. 0.05");
  if (args.base_trips < 1 || args.base_trips > 100000)
    throw UsageError("--base-trips must be within 1..100000, e.g. 20");
  RunContext ctx = make_context(local_launch(), args.gpu);
  if (ctx.gpus.empty()) throw Error("selfcheck needs a CUDA GPU: " + ctx.no_gpu_reason);
  ctx.options = args.options;
  const int device = ctx.gpus.front();
  GB_CUDA_CHECK(cudaSetDevice(device));
  // The host spins while it waits: the default policy may switch to yielding for kernels of some
  // microseconds, which makes host-timed kernel latency non-linear in the work.
  GB_CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  const double hz = measure_sm_clock_hz(device);
  selfcheck::AddChain chain;

  auto loop_clock = [&](long adds) {
    return clock_figure(clock_technique(
        ctx, [&] { return chain.run_loop(adds).cycles / adds; }, hz, adds));
  };
  auto unrolled_clock = [&](long adds) {
    return clock_figure(
        clock_technique(ctx, [&] { return chain.run(adds).cycles / adds; }, hz, adds));
  };
  auto differential_between = [&](long lo, long hi, auto run) {
    RunContext pair = ctx;
    pair.options.reps_lo = lo;
    pair.options.reps_hi = hi;
    return differential(pair, [&](long adds) { return run(adds).seconds; });
  };

  // The check: the loop kernel by both techniques at every repeat difference.
  const long loop_base = args.base_trips * selfcheck::kLoopBody;
  const Figure loop_lo = loop_clock(loop_base);
  std::vector<LoopRow> loop;
  for (const long d : selfcheck::kDifferences) {
    LoopRow r;
    r.difference = d;
    r.adds_hi = loop_base + d;
    r.clock = loop_clock(r.adds_hi);
    // The pair's ns become cycles at the clock its own kernels ran at: the figure compares the
    // two techniques, not the SM clock now with the one measured before the check.
    double cycles = 0, ns = 0;
    const Measurement m =
        differential_between(loop_base, r.adds_hi, [&](long adds) {
          const selfcheck::ChainSample s = chain.run_loop(adds);
          cycles += s.cycles;
          ns += s.ns;
          return s;
        });
    r.clock_hz = ns > 0 ? cycles / ns * 1e9 : hz;
    r.differential = differential_figure(m, r.clock_hz);
    r.sigma = m.stats.stddev * r.clock_hz / 1e9;
    r.deviation = r.differential.value / r.clock.value - 1;
    const double se = std::hypot(r.differential.se, r.clock.se);
    const double gap = std::fabs(r.differential.value - r.clock.value);
    r.agreement = std::fabs(r.deviation) <= args.tolerance ? "tolerance"
                  : gap <= kAgreeSe * se                   ? "2se"
                                                           : "none";
    loop.push_back(r);
  }

  // The instruction-cache scan: unrolled chains, judged by the clock technique alone.
  const Figure reference = unrolled_clock(selfcheck::kBaseAdds);
  std::vector<CacheRow> cache;
  std::optional<CacheRow> stops;
  for (const long d : selfcheck::kDifferences) {
    CacheRow r;
    r.difference = d;
    r.adds = selfcheck::kBaseAdds + d;
    r.clock = unrolled_clock(r.adds);
    r.fits = std::fabs(r.clock.value / reference.value - 1) <= kFitMargin;
    const Measurement m = differential_between(selfcheck::kBaseAdds, r.adds,
                                               [&](long adds) { return chain.run(adds); });
    r.differential = differential_figure(m, hz);
    const double by_clock = r.clock.value * r.adds - reference.value * selfcheck::kBaseAdds;
    r.launch_cycles = r.differential.value * d - by_clock;
    r.launch_se = r.differential.se * d;
    if (!r.fits && !stops) stops = r;
    cache.push_back(r);
  }

  std::string within_tol, within_se, disagree;
  for (const LoopRow& r : loop) {
    std::string& list = r.agreement == "tolerance" ? within_tol
                        : r.agreement == "2se"     ? within_se
                                                   : disagree;
    list += (list.empty() ? "" : ", ") + std::to_string(r.difference);
  }
  const bool ok = disagree.empty();
  const std::string tol = std::to_string(std::lround(100 * args.tolerance)) + "%";
  std::string verdict;
  if (ok) {
    verdict =
        "the loop kernel's differential figure agrees with its clock figure at every repeat "
        "difference (";
    if (!within_tol.empty()) verdict += "within " + tol + " at " + within_tol;
    if (!within_tol.empty() && !within_se.empty()) verdict += "; ";
    if (!within_se.empty()) verdict += "within 2 standard errors only at " + within_se;
    verdict += ")";
  } else {
    verdict = "the loop kernel's differential figure disagrees with its clock figure by more "
              "than " + tol + " and 2 standard errors at repeat difference " + disagree;
  }
  char fit_text[256];
  if (stops)
    std::snprintf(fit_text, sizeof fit_text,
                  "the unrolled chain stops fitting the instruction cache at %ld adds (%.0f KiB "
                  "of code): %.3f cycles/add against %.3f",
                  stops->adds, code_kib(stops->adds), stops->clock.value, reference.value);
  else
    std::snprintf(fit_text, sizeof fit_text,
                  "the unrolled chain fits the instruction cache up to %ld adds (%.0f KiB of "
                  "code), the longest compiled in",
                  cache.back().adds, code_kib(cache.back().adds));

  if (global.json) {
    auto fig = [](const Figure& f) {
      return nlohmann::json{
          {"cycles", f.value}, {"se_cycles", f.se}, {"samples", f.samples}, {"stop", f.stop}};
    };
    nlohmann::json out;
    out["gpu"] = device;
    out["gpu_model"] = ctx.env.gpu_model;
    out["sm_clock_mhz"] = hz / 1e6;
    out["tolerance"] = args.tolerance;
    out["agree_standard_errors"] = kAgreeSe;
    out["base_adds"] = selfcheck::kBaseAdds;
    out["loop_body_adds"] = selfcheck::kLoopBody;
    out["loop_clock_lo"] = fig(loop_lo);
    out["rows"] = nlohmann::json::array();
    for (const LoopRow& r : loop)
      out["rows"].push_back({{"repeat_difference", r.difference},
                             {"adds_lo", loop_base},
                             {"adds_hi", r.adds_hi},
                             {"trips_lo", args.base_trips},
                             {"trips_hi", trips(r.adds_hi)},
                             {"clock_cycles", r.clock.value},
                             {"clock", fig(r.clock)},
                             {"differential_cycles", r.differential.value},
                             {"differential", fig(r.differential)},
                             {"differential_sigma_cycles", r.sigma},
                             {"sm_clock_mhz", r.clock_hz / 1e6},
                             {"deviation", r.deviation},
                             {"agreement", r.agreement},
                             {"agrees", r.agreement != "none"}});
    out["reference_cycles"] = reference.value;
    out["fit_margin"] = kFitMargin;
    out["icache"] = nlohmann::json::array();
    for (const CacheRow& r : cache)
      out["icache"].push_back({{"repeat_difference", r.difference},
                               {"adds", r.adds},
                               {"code_kib", code_kib(r.adds)},
                               {"clock_cycles", r.clock.value},
                               {"clock", fig(r.clock)},
                               {"fits_icache", r.fits},
                               {"differential_cycles", r.differential.value},
                               {"differential", fig(r.differential)},
                               {"launch_difference_cycles", r.launch_cycles},
                               {"launch_difference_se_cycles", r.launch_se}});
    out["stops_fitting_at"] =
        stops ? nlohmann::json{{"adds", stops->adds},
                               {"code_kib", code_kib(stops->adds)},
                               {"repeat_difference", stops->difference}}
              : nlohmann::json(nullptr);
    out["ok"] = ok;
    out["verdict"] = verdict;
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    print_tables(loop, cache, loop_lo, reference, args, device, ctx.env.gpu_model, hz);
    std::printf("%s %s.\n%c%s.\n", ok ? "PASS:" : "FAIL:", verdict.c_str(),
                std::toupper(static_cast<unsigned char>(fit_text[0])), fit_text + 1);
  }
  if (!ok) throw Error("selfcheck: " + verdict);
}

}  // namespace

void add_selfcheck_command(CLI::App& app, GlobalOptions& global) {
  auto args = std::make_shared<SelfcheckArgs>();
  // Ten differential figures set the run time (the clock figures converge at their minimum
  // samples): the kernels take microseconds, so thousands of pairs fit in 1.5 s and a 1%
  // standard error is usually reached well before it; 15 s when every one runs out of budget.
  args->options.time_budget_s = 1.5;
  args->options.rse_target = 0.01;
  auto* cmd = app.add_subcommand(
      "selfcheck",
      "Check the measurement techniques on this GPU: an FP32 add loop timed by the clock\n"
      "technique and by the differential technique at repeat differences 2048..51200 (seed 001\n"
      "section 9.4), and a scan of unrolled chains for where they stop fitting the instruction\n"
      "cache. Exits 1 when the two techniques disagree on the loop.");
  cmd->add_option("--gpu", args->gpu, "GPU index (default: the first visible)")
      ->envname("GPUBARRIER_GPU");
  cmd->add_option("--tolerance", args->tolerance, "Largest relative deviation that agrees")
      ->capture_default_str();
  cmd->add_option("--base-trips", args->base_trips,
                  "R_lo of the loop kernel in trips of " + std::to_string(selfcheck::kLoopBody) +
                      " adds; R_hi = R_lo + each repeat difference")
      ->capture_default_str();
  cmd->add_option("--samples", args->options.samples, "Minimum samples per figure")
      ->envname("GPUBARRIER_SAMPLES")
      ->capture_default_str();
  cmd->add_option("--time-budget", args->options.time_budget_s,
                  "Seconds per figure before adaptive sampling gives up")
      ->envname("GPUBARRIER_TIME_BUDGET")
      ->capture_default_str();
  cmd->add_option("--rse-target", args->options.rse_target,
                  "Stop sampling a figure once its relative standard error is below this")
      ->envname("GPUBARRIER_RSE_TARGET")
      ->capture_default_str();
  cmd->add_flag("--json", global.json, "JSON on stdout instead of the table");
  cmd->callback([args, &global] { selfcheck(*args, global); });
}

}  // namespace gb::cli
