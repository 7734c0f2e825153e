// The command line of `run` and `sweep`: the options both take, defined once, and the checks of
// their values that other commands share.
#pragma once

#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/session_args.hpp"

namespace gb::cli {

// --out's check: an empty path is refused (the default path is taken only without --out).
CLI::Validator out_path_check();

// What --methods and --axis select: `run` names the methods, `sweep` narrows its file's.
struct SelectionHelp {
  std::string methods;           // --methods' help
  bool methods_default = false;  // --help shows --methods' default value
  std::string axis;              // --axis' help, before the categorical axes' names
};

// Adds, in the order --help lists them: --methods and --axis into `methods` and `axes`, then
// --gpus, --out, --raw, --system, --samples, --time-budget, --rse-target, --watchdog, --reps-lo,
// --reps-hi, --resume, --force, --retry-failed, --max-retries, --point-limit, --isolate,
// --point-timeout, --mpi-thread-level and the isolated child's hidden flags into `args`, then
// --json into `global`.
void add_measure_options(CLI::App& cmd, std::string& methods, std::vector<std::string>& axes,
                         SessionArgs& args, GlobalOptions& global, const SelectionHelp& help);

// Which settings `cmd`'s command line (or environment) gave, once it is parsed.
GivenFlags given_flags(const CLI::App& cmd);

// The part of --axis' help that names the categorical axes and their value names, from the
// registered methods (core/axis_glossary.hpp): "A categorical axis takes a name or its code:
// blocking: back-to-back|sync-each-step; ...".
std::string categorical_axes_help();

// Refuses (gb::UsageError) sampling settings outside the ranges that sweep files apply too
// (core/setting_ranges.hpp), naming the flag; `selfcheck` checks its own with it.
void validate_options(const RunOptions& options);

// Refuses (gb::UsageError) the session's own settings out of range: --point-limit,
// --point-timeout, --max-retries.
void validate_session(const SessionArgs& args);

// "%.17g": a setting as a child's command line repeats it, exactly.
std::string exact_number(double v);

}  // namespace gb::cli
