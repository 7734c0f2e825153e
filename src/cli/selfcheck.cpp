// `gpubarrier selfcheck`: do the two techniques that every in-SM and inter-SM figure rests on
// agree on this GPU? Seed 001 section 9.4 checked its differential technique (Eqs. 7-8) against
// Wong's clock technique on the FP32 add; this repeats that at repeat differences 2048..51200.
// The two must agree within the tolerance while the chain fits the instruction cache; beyond it
// the differential figure jumps, and selfcheck reports where.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "common/sm_clock.hpp"
#include "core/errors.hpp"
#include "core/techniques.hpp"
#include "selfcheck/add_chain.hpp"

namespace gb::cli {
namespace {

struct SelfcheckArgs {
  std::string gpu;  // empty: the first visible GPU
  double tolerance = 0.05;
  // The differential figure must rise this far above the reference to count as a jump: well
  // above the tolerance, so that noise does not end the cache-fitting range early.
  double jump = 0.15;
  RunOptions options;
};

struct ChainRow {
  long difference = 0, adds = 0;
  double clock_cycles = 0;         // per add, clock technique on the longer chain
  double differential_cycles = 0;  // per add, Eq. 7 converted with the measured SM clock
  double sigma_cycles = 0;         // Eq. 8
  double deviation = 0;            // differential / clock - 1
  bool fits = false, agrees = false;
};

// The instruction bytes of a chain on sm_90: 16 per FADD.
double code_kib(long adds) {
  return static_cast<double>(adds) * 16 / 1024;
}

void print_table(const std::vector<ChainRow>& rows, double reference, int device,
                 const std::string& gpu_model, double hz) {
  std::printf(
      "FP32 add latency, clock technique against the differential technique "
      "(seed 001 section 9.4)\n");
  std::printf("GPU %d: %s, SM clock %.0f MHz measured\n", device, gpu_model.c_str(), hz / 1e6);
  std::printf("reference: clock technique on the %ld-add chain (%.0f KiB): %.3f cycles/add\n\n",
              selfcheck::kBaseAdds, code_kib(selfcheck::kBaseAdds), reference);
  std::printf("%9s %8s %9s %12s %14s %10s %10s %6s %6s\n", "rep diff", "adds", "code KiB",
              "clock cyc", "differential", "sigma", "deviation", "fits", "agree");
  for (const ChainRow& r : rows)
    std::printf("%9ld %8ld %9.0f %12.3f %14.3f %10.3f %9.1f%% %6s %6s\n", r.difference, r.adds,
                code_kib(r.adds), r.clock_cycles, r.differential_cycles, r.sigma_cycles,
                100 * r.deviation, r.fits ? "yes" : "no", r.fits ? (r.agrees ? "yes" : "NO") : "-");
  std::printf("\n");
}

void selfcheck(const SelfcheckArgs& args, const GlobalOptions& global) {
  if (args.tolerance <= 0 || args.tolerance >= 1)
    throw UsageError("--tolerance must be within (0, 1), e.g. 0.05");
  RunContext ctx = make_context(local_launch(), args.gpu);
  if (ctx.gpus.empty()) throw Error("selfcheck needs a CUDA GPU: " + ctx.no_gpu_reason);
  ctx.options = args.options;
  const int device = ctx.gpus.front();
  GB_CUDA_CHECK(cudaSetDevice(device));
  const double hz = measure_sm_clock_hz(device);
  selfcheck::AddChain chain;

  auto clock_cycles = [&](long adds) {
    const auto ms = clock_technique(
        ctx, [&] { return chain.run(adds).cycles / adds; }, hz, adds);
    return ms.front().value;
  };
  const double reference = clock_cycles(selfcheck::kBaseAdds);

  std::vector<ChainRow> rows;
  std::optional<long> jump_at;
  for (const long d : selfcheck::kDifferences) {
    ChainRow r;
    r.difference = d;
    r.adds = selfcheck::kBaseAdds + d;
    r.clock_cycles = clock_cycles(r.adds);
    RunContext pair = ctx;
    pair.options.reps_lo = selfcheck::kBaseAdds;
    pair.options.reps_hi = r.adds;
    const Measurement m = differential(pair, [&](long adds) { return chain.run(adds).seconds; });
    r.differential_cycles = m.value * hz / 1e9;
    r.sigma_cycles = m.stats.stddev * hz / 1e9;
    r.deviation = r.differential_cycles / r.clock_cycles - 1;
    // Once the figure has jumped, longer chains do not fit either.
    r.fits = !jump_at && r.differential_cycles <= reference * (1 + args.jump);
    if (!r.fits && !jump_at) jump_at = d;
    r.agrees = std::fabs(r.deviation) <= args.tolerance;
    rows.push_back(r);
  }

  std::vector<long> disagree;
  for (const ChainRow& r : rows)
    if (r.fits && !r.agrees) disagree.push_back(r.difference);
  const bool checked = !rows.empty() && rows.front().fits;
  const bool ok = checked && disagree.empty();

  std::string verdict;
  if (!checked)
    verdict = "the shortest chain already overflows the instruction cache: nothing to compare";
  else if (!disagree.empty())
    verdict =
        "the techniques disagree by more than the tolerance while the chain fits the "
        "instruction cache";
  else
    verdict =
        "the techniques agree within the tolerance while the chain fits the instruction cache";
  std::string cache = jump_at ? "the differential figure jumps at repeat difference " +
                                    std::to_string(*jump_at) + " (" +
                                    std::to_string(selfcheck::kBaseAdds + *jump_at) +
                                    " adds): the chain stops fitting the instruction cache there"
                              : "the chain fits the instruction cache at every repeat difference";

  if (global.json) {
    nlohmann::json out;
    out["gpu"] = device;
    out["gpu_model"] = ctx.env.gpu_model;
    out["sm_clock_mhz"] = hz / 1e6;
    out["reference_cycles"] = reference;
    out["base_adds"] = selfcheck::kBaseAdds;
    out["tolerance"] = args.tolerance;
    out["rows"] = nlohmann::json::array();
    for (const ChainRow& r : rows)
      out["rows"].push_back({{"repeat_difference", r.difference},
                             {"adds", r.adds},
                             {"code_kib", code_kib(r.adds)},
                             {"clock_cycles", r.clock_cycles},
                             {"differential_cycles", r.differential_cycles},
                             {"differential_sigma_cycles", r.sigma_cycles},
                             {"deviation", r.deviation},
                             {"fits_icache", r.fits},
                             {"agrees", r.agrees}});
    out["stops_fitting_at"] = jump_at ? nlohmann::json(*jump_at) : nlohmann::json(nullptr);
    out["ok"] = ok;
    out["verdict"] = verdict;
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    print_table(rows, reference, device, ctx.env.gpu_model, hz);
    std::printf("%s %s.\n%s.\n", ok ? "PASS:" : "FAIL:", verdict.c_str(), cache.c_str());
  }
  if (!ok) throw Error("selfcheck: " + verdict);
}

}  // namespace

void add_selfcheck_command(CLI::App& app, GlobalOptions& global) {
  auto args = std::make_shared<SelfcheckArgs>();
  args->options.time_budget_s = 3.0;
  args->options.rse_target = 0.002;
  auto* cmd = app.add_subcommand(
      "selfcheck",
      "Check the measurement techniques on this GPU: an FP32 add chain timed by the clock\n"
      "technique and by the differential technique at repeat differences 2048..51200 (seed 001\n"
      "section 9.4). Exits 1 when they disagree while the chain fits the instruction cache.");
  cmd->add_option("--gpu", args->gpu, "GPU index (default: the first visible)")
      ->envname("GPUBARRIER_GPU");
  cmd->add_option("--tolerance", args->tolerance, "Largest relative deviation that agrees")
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
