// The values a session is asked for: the command line's settings of `run` and `sweep`, the
// selections of methods and axes, and what a sweep file adds to them. Plain values: the steps of
// app/session_steps.hpp read them and return what they decide, none changes them in place.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/isolated_child.hpp"
#include "app/isolation_mode.hpp"
#include "app/point_book.hpp"
#include "core/run_context.hpp"
#include "runtime/mpi_thread_level.hpp"

namespace gb {
struct SweepFile;
}

namespace gb::cli {

struct SessionArgs {
  std::string gpus;
  std::string out;  // "" until resolved: the default path (app/default_out.hpp)
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
  MpiThreadLevel mpi_thread_level = MpiThreadLevel::single;  // asked of MPI_Init_thread
  // Hidden, for isolated children: the parent's run id, its pipe and what to skip.
  std::string run_id;
  ChildArgs child;
};

// One selection of methods with its axis overrides (a `run` or one entry of a sweep file).
struct PlanSpec {
  std::string methods = "*";
  std::vector<std::string> axes;
};

// The plan specs of a sweep file's entries, in its order.
std::vector<PlanSpec> specs_of(const SweepFile& sweep);

// `sweep FILE --methods GLOBS --axis ...`: narrows every entry of the file (empty: as written).
struct Narrowing {
  std::string methods;
  std::vector<std::string> axes;
};

// Which of the settings a sweep file may give were given on the command line (or by their
// GPUBARRIER_* variables): those beat the file.
struct GivenFlags {
  bool samples = false, time_budget = false, rse_target = false, point_timeout = false;
  bool isolate = false;
};

// `args` with the sweep file's samples, time_budget, rse_target and point_timeout where the
// command line gave none.
SessionArgs with_file_defaults(SessionArgs args, const SweepFile& sweep, const GivenFlags& given);

// What a session is asked to run, and the settings it runs them under.
struct Asked {
  SessionArgs args;
  std::vector<PlanSpec> specs;
};

// Reads what a session runs from the command line's settings (`run`: its one selection;
// `sweep`: the file loaded and checked, its defaults applied). Throws gb::UsageError for bad
// input, which the session agrees on across ranks.
using SpecReader = std::function<Asked(const SessionArgs&)>;

}  // namespace gb::cli
