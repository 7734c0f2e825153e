#include "app/session_options.hpp"

#include <cstdio>

#include "core/axis_glossary.hpp"
#include "core/names.hpp"
#include "core/setting_ranges.hpp"
#include "errors/errors.hpp"
#include "runtime/mpi_thread_level.hpp"

namespace gb::cli {
namespace {

// The flag's value (from the command line or its GPUBARRIER_* variable) within the range that
// sweep files apply too.
void check_range(const SettingRange& range, double value) {
  const std::string wrong = range_violation(range, value);
  if (!wrong.empty())
    throw UsageError(std::string(range.flag) + " " + exact_number(value) + ": " + wrong);
}

void add_session_options(CLI::App& cmd, SessionArgs& args) {
  cmd.add_option("--gpus", args.gpus,
                 "GPU indices, e.g. 0,1 (default: all visible; under MPI the local rank's GPU)")
      ->envname("GPUBARRIER_GPUS");
  cmd.add_option("--out", args.out,
                 "CSV file (default results/local/<host>-<timestamp>.csv; 'none' for no file)")
      ->envname("GPUBARRIER_OUT")
      ->check(out_path_check());
  cmd.add_option("--raw", args.raw,
                 "Also write every sample behind every figure to this CSV, one line each "
                 "(run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,value)")
      ->envname("GPUBARRIER_RAW");
  cmd.add_option("--system", args.system,
                 "Machine type written to each row, e.g. dgx-h100 (default local)")
      ->envname("GPUBARRIER_SYSTEM")
      ->capture_default_str();
  cmd.add_option("--samples", args.options.samples,
                 "Minimum samples per configuration, within --time-budget (the budget ends a "
                 "configuration that has not reached them)")
      ->envname("GPUBARRIER_SAMPLES")
      ->capture_default_str();
  cmd.add_option("--time-budget", args.options.time_budget_s,
                 "Seconds per configuration before adaptive sampling gives up")
      ->envname("GPUBARRIER_TIME_BUDGET")
      ->capture_default_str();
  cmd.add_option("--rse-target", args.options.rse_target,
                 "Stop sampling once the relative standard error is below this")
      ->envname("GPUBARRIER_RSE_TARGET")
      ->capture_default_str();
  cmd.add_option("--watchdog", args.options.watchdog_s,
                 "Seconds a device spin loop waits before giving up (a timeout row, not a hang)")
      ->envname("GPUBARRIER_WATCHDOG")
      ->capture_default_str();
  cmd.add_option("--reps-lo", args.options.reps_lo, "Differential technique: R_lo")
      ->envname("GPUBARRIER_REPS_LO")
      ->capture_default_str();
  cmd.add_option("--reps-hi", args.options.reps_hi, "Differential technique: R_hi")
      ->envname("GPUBARRIER_REPS_HI")
      ->capture_default_str();
  cmd.add_flag("--resume", args.resume,
               "Continue the --out CSV: skip points its completion log (<out>.done) lists as "
               "finished, drop rows of a point that never finished")
      ->envname("GPUBARRIER_RESUME");
  cmd.add_flag("--force", args.force,
               "Replace an --out or --raw file that already holds rows (without it such a file is "
               "refused: continue it with --resume)")
      ->envname("GPUBARRIER_FORCE");
  cmd.add_flag("--retry-failed", args.retry.retry_failed,
               "With --resume: run failed and timeout points again (see --max-retries)")
      ->envname("GPUBARRIER_RETRY_FAILED");
  cmd.add_option("--max-retries", args.retry.max_retries,
                 "With --retry-failed: attempts after a point's first failure")
      ->envname("GPUBARRIER_MAX_RETRIES")
      ->capture_default_str();
  cmd.add_option("--point-limit", args.point_limit,
                 "Refuse a run of more points than this (the product of the axes' values, summed "
                 "over methods); raise it for a sweep that large on purpose")
      ->envname("GPUBARRIER_POINT_LIMIT")
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--isolate",
         [&args](const std::string& text) {
           args.isolate = parse_name<Isolation>(text, "--isolate");
         },
         "Run each method or point in a child process (a crash becomes a failed row, a hang a "
         "timeout row), or none")
      ->envname("GPUBARRIER_ISOLATE")
      ->check(CLI::IsMember(names_of<Isolation>()))
      ->default_str(std::string(name_of(args.isolate)));
  cmd.add_option("--point-timeout", args.point_timeout_s,
                 "Seconds an isolated child may take for one point before it is killed")
      ->envname("GPUBARRIER_POINT_TIMEOUT")
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--mpi-thread-level",
         [&args](const std::string& text) { args.mpi_thread_level = parse_mpi_thread_level(text); },
         "Under mpirun/srun: the thread support asked of MPI_Init_thread (single, "
         "funneled, serialized, multiple). gpubarrier calls MPI from its main thread "
         "only; OSU measures at single. Open MPI 4.1 takes locks in every call above "
         "single, which MPI_Barrier's figure shows. Written in the mpi_thread_level column")
      ->envname("GPUBARRIER_MPI_THREAD_LEVEL")
      ->check(CLI::IsMember(names_of<MpiThreadLevel>()))
      ->default_str(std::string(name_of(args.mpi_thread_level)));
  // For isolated children only (started by the session itself), so not in --help.
  cmd.add_option("--run-id", args.run_id)->group("");
  cmd.add_option("--child-fd", args.child.fd)->group("");
  cmd.add_option("--skip-file", args.child.skip_file)->group("");
  cmd.add_option("--max-points", args.child.max_points)->group("");
}

}  // namespace

std::string exact_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

CLI::Validator out_path_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (!value.empty()) return "";
        return "expected a file path, or none for no CSV (without --out the CSV is "
               "results/local/<host>-<timestamp>.csv)";
      },
      "PATH");
}

void add_measure_options(CLI::App& cmd, std::string& methods, std::vector<std::string>& axes,
                         SessionArgs& args, GlobalOptions& global, const SelectionHelp& help) {
  auto* methods_option =
      cmd.add_option("--methods", methods, help.methods)->envname("GPUBARRIER_METHODS");
  if (help.methods_default) methods_option->capture_default_str();
  cmd.add_option("--axis", axes, help.axis + ". " + categorical_axes_help())
      ->envname("GPUBARRIER_AXIS")
      ->delimiter(';');
  add_session_options(cmd, args);
  cmd.add_flag("--json", global.json, "Rows as a JSON array on stdout instead of the table")
      ->envname("GPUBARRIER_JSON");
}

GivenFlags given_flags(const CLI::App& cmd) {
  const auto given = [&cmd](const char* flag) { return cmd.count(flag) > 0; };
  return {.samples = given("--samples"),
          .time_budget = given("--time-budget"),
          .rse_target = given("--rse-target"),
          .point_timeout = given("--point-timeout"),
          .isolate = given("--isolate")};
}

std::string categorical_axes_help() {
  std::string text =
      "A categorical axis takes a name or its code (`gpubarrier schema` says what "
      "each name means):";
  std::string axis;
  for (const GlossaryEntry& e : glossary()) {
    text += e.axis == axis ? "|" : (axis.empty() ? " " : "; ") + e.axis + ": ";
    text += e.name;
    axis = e.axis;
  }
  return text;
}

void validate_options(const RunOptions& o) {
  check_range(kSamplesRange, o.samples);
  check_range(kTimeBudgetRange, o.time_budget_s);
  check_range(kWatchdogRange, o.watchdog_s);
  check_range(kRseTargetRange, o.rse_target);
  if (o.reps_lo < 1 || o.reps_hi <= o.reps_lo)
    throw UsageError("--reps-lo/--reps-hi: need 1 <= reps_lo < reps_hi");
}

void validate_session(const SessionArgs& a) {
  if (a.point_limit < 1) throw UsageError("--point-limit must be >= 1");
  check_range(kPointTimeoutRange, a.point_timeout_s);
  if (a.retry.max_retries < 0) throw UsageError("--max-retries must be >= 0");
}

}  // namespace gb::cli
