// `gpubarrier selfcheck`: do the two techniques that every in-SM and inter-SM figure rests on agree
// on this GPU? The study (Zhang, Wahib, Zhang, Matsuoka), section 9.4 checked its differential
// technique (Eqs. 7-8) against Wong's clock technique on the FP32 add; this repeats that at repeat
// differences 2048..51200.
//
// The check runs on the loop kernel (kernels/selfcheck/add_chain.hpp): R_lo and R_hi execute
// the same function and differ only in trips, so the differential technique's assumption that
// more repetitions add no launch cost holds. The study's unrolled chains break it: the hi
// and lo kernels differ in code size and hence in launch cost, a constant that dominates at
// small repeat differences. They are kept for what they are good for, finding where the chain
// stops fitting the instruction cache, judged by the clock technique alone; their differential
// figure is shown beside it with the launch-cost difference it implies.
//
// Here: the options, the sinks and the exit status. The sequence and the measurement are in
// kernels/selfcheck/run_check.hpp, the judgements and records in core/selfcheck_*, the tables
// and JSON in io/selfcheck_*.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/context.hpp"
#include "app/default_out.hpp"
#include "app/overwrite_guard.hpp"
#include "app/session_options.hpp"
#include "errors/errors.hpp"
#include "io/csv_writer.hpp"
#include "io/selfcheck_json.hpp"
#include "io/selfcheck_tables.hpp"
#include "runtime/launcher.hpp"
#include "selfcheck/run_check.hpp"
#include "topology/probe.hpp"
#include "topology/topology_class.hpp"

namespace gb::cli {
namespace {

struct SelfcheckArgs {
  std::string gpu;  // empty: the first visible GPU
  std::string out;  // empty: results/local/<host>-<timestamp>-selfcheck.csv
  bool force = false;
  selfcheck::CheckOptions check;
  RunOptions options;
};

void selfcheck(const SelfcheckArgs& args, const GlobalOptions& global) {
  if (args.check.tolerance <= 0 || args.check.tolerance >= 1)
    throw UsageError("--tolerance must be within (0, 1), e.g. 0.05");
  if (args.check.base_trips < 1 || args.check.base_trips > 100000)
    throw UsageError("--base-trips must be within 1..100000, e.g. 20");
  validate_options(args.options);
  RunContext ctx = make_context(local_launch(), args.gpu, "--gpu");
  ctx.options = args.options;
  if (ctx.gpus.size() > 1) ctx.gpus.resize(1);  // one GPU: its rows name it alone

  const std::string run_id = make_run_id(ctx.env.host);
  const std::optional<std::string> path =
      args.out.empty() ? default_out(local_launch(), ctx.env.host, run_id, "-selfcheck")
                       : csv_path_of(args.out);
  // Opened before anything is measured, so that an unwritable path fails at once.
  std::unique_ptr<CsvWriter> csv;
  if (path) {
    refuse_to_overwrite(*path, "--out", args.force);
    csv = std::make_unique<CsvWriter>(*path);
  }
  std::vector<ResultSink*> sinks;
  if (csv) sinks.push_back(csv.get());

  const selfcheck::RecordMaker records(ctx, run_id,
                                       topo::topology_class(topo::probe_local(), ctx.gpus));
  if (ctx.gpus.empty()) {
    // Like any method without a GPU: skipped rows that say why. Still a failure: nothing checked.
    for (const Record& r : records.skipped("no CUDA GPU visible: " + ctx.no_gpu_reason))
      for (ResultSink* s : sinks) s->write(r);
    throw Error("selfcheck needs a CUDA GPU: " + ctx.no_gpu_reason);
  }
  const selfcheck::Outcome outcome = selfcheck::run_check(ctx, args.check, records, sinks);
  for (ResultSink* s : sinks) s->finish();

  if (global.json)
    std::printf("%s\n", selfcheck_json(outcome).dump(2).c_str());
  else
    print_selfcheck(stdout, outcome);
  std::fflush(stdout);
  if (csv) std::fprintf(stderr, "CSV: %s\n", csv->path().c_str());
  if (!selfcheck::passed(outcome)) throw Error("selfcheck: " + selfcheck::verdict(outcome));
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
      "technique and by the differential technique at repeat differences 2048..51200 (the study's\n"
      "section 9.4), and a scan of unrolled chains for where they stop fitting the instruction\n"
      "cache. Rows go to a CSV (selfcheck.fadd.loop, selfcheck.fadd.unrolled). Exits 1 when the\n"
      "two techniques disagree on the loop.");
  cmd->add_option("--gpu", args->gpu, "GPU index (default: the first visible)")
      ->envname("GPUBARRIER_GPU");
  cmd->add_option("--out", args->out,
                  "CSV file (default results/local/<host>-<timestamp>-selfcheck.csv; 'none' for "
                  "no file)")
      ->check(out_path_check());
  cmd->add_flag("--force", args->force, "Replace an --out file that already holds rows");
  cmd->add_option("--tolerance", args->check.tolerance, "Largest relative deviation that agrees")
      ->capture_default_str();
  cmd->add_option("--base-trips", args->check.base_trips,
                  "R_lo of the loop kernel in trips of " + std::to_string(selfcheck::kLoopBody) +
                      " adds; R_hi = R_lo + each repeat difference")
      ->capture_default_str();
  cmd->add_option("--samples", args->options.samples,
                  "Minimum samples per figure, within --time-budget")
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
