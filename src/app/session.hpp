// What `run` and `sweep` share: MPI start-up, the run context, the output sinks, --resume and
// --isolate, and running one or more plans into the same CSV.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/isolated_child.hpp"
#include "app/isolation_mode.hpp"
#include "app/point_book.hpp"
#include "core/run_context.hpp"

namespace gb::cli {

struct SessionArgs {
  std::string gpus;
  std::string out;
  std::string raw;  // --raw: one line per sample ("" none)
  std::string system = "local";
  RunOptions options;
  bool resume = false;
  bool force = false;  // replace an --out/--raw file that holds rows
  RetryPolicy retry;
  long point_limit = 20000;             // points a run may ask for (--point-limit)
  Isolation isolate = Isolation::none;  // `sweep` defaults to method
  bool isolate_given = false;    // by flag or environment, not the default (notes under mpirun)
  double point_timeout_s = 600;  // an isolated child gets this long per point
  std::string mpi_thread_level = "single";  // asked of MPI_Init_thread under mpirun/srun
  // Hidden, for isolated children: the parent's run id, its pipe and what to skip.
  std::string run_id;
  ChildArgs child;
};

// One selection of methods with its axis overrides (a `run` or one entry of a sweep file).
struct PlanSpec {
  std::string methods = "*";
  std::vector<std::string> axes;
};

// `sweep FILE --methods GLOBS --axis ...`: narrows every entry of the file (empty: as written).
struct Narrowing {
  std::string methods;
  std::vector<std::string> axes;
};

// --out's check: an empty path is refused (the default path is taken only without --out).
CLI::Validator out_path_check();

// Adds --gpus, --out, --raw, --system, --samples, --time-budget, --rse-target, --watchdog,
// --reps-lo,
// --reps-hi, --resume, --retry-failed, --max-retries, --isolate, --point-timeout,
// --mpi-thread-level.
void add_session_options(CLI::App& cmd, SessionArgs& args);

// The part of --axis' help that names the categorical axes and their value names, from the
// registered methods (core/axis_glossary.hpp): "A categorical axis takes a name or its code:
// blocking: back-to-back|sync-each-step; ...".
std::string categorical_axes_help();

// Refuses (gb::UsageError) sampling settings outside the ranges that sweep files apply too
// (core/setting_ranges.hpp), naming the flag; `selfcheck` checks its own with it.
void validate_options(const RunOptions& options);

// Refuses (gb::UsageError), in the words `run` and `sweep` use, specs that ask for more than
// `limit` points, counted from the axes without expanding them; `config check` calls it with the
// default --point-limit so that a sweep it passes is one `sweep` runs.
void check_point_limit(const std::vector<PlanSpec>& specs, long limit = SessionArgs{}.point_limit);

// What a session runs, read (a sweep file loaded, its defaults put into the SessionArgs) where a
// mistake in it is agreed on by every rank.
using SpecReader = std::function<std::vector<PlanSpec>()>;

// Reads and validates every spec before anything is measured, then runs them in order into one
// CSV. Bad input (gb::UsageError) found before measuring is agreed on under mpirun/srun: every
// rank throws the lowest such rank's message, after MPI's orderly end, so that all exit 2 and
// none waits for a rank that left (main prints it on rank 0 alone).
void execute_session(SessionArgs& args, const SpecReader& read_specs, const GlobalOptions& global,
                     const Narrowing& cli = {});

}  // namespace gb::cli
