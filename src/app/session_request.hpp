// The first step of a session: what it is asked to run, read and checked before MPI starts, so
// that every rank can agree on a mistake before anything is measured.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/session_args.hpp"
#include "core/runner.hpp"
#include "io/resume_log.hpp"

namespace gb::cli {

// The plans of `specs`: each spec's methods from `all` (its globs; one matching none is
// refused) with its --axis texts parsed and checked against them.
std::vector<RunPlan> make_plans(const std::vector<std::unique_ptr<Method>>& all,
                                const std::vector<PlanSpec>& specs);

// `plans` narrowed by `sweep FILE --methods GLOBS --axis ...`: each entry keeps the methods that
// match, an entry left without methods is dropped, and an axis replaces the values of every entry
// that has it. A glob or an axis that nothing in the plans has is refused.
std::vector<RunPlan> narrowed(std::vector<RunPlan> plans, const Narrowing& narrowing);

// Refuses (gb::UsageError), in the words `run` and `sweep` use, plans that ask for more than
// `limit` points, counted from the axes without expanding them.
void check_point_count(const std::vector<RunPlan>& plans, long limit);

// check_point_count of the plans of `specs`; `config check` calls it with the default
// --point-limit so that a sweep it passes is one `sweep` runs.
void check_point_limit(const std::vector<PlanSpec>& specs, long limit = SessionArgs{}.point_limit);

// What a session runs and the settings it runs them under; `mistake` is the bad input found
// reading them ("" for none), which the session throws on every rank once MPI has started.
struct Request {
  SessionArgs args;
  std::vector<RunPlan> plans;  // their methods point into the `all` they were made from
  std::string mistake;
};

// Reads the specs (`read` from the command line's `given` settings), checks the settings and
// makes the plans from `all`, narrowed, within --point-limit.
Request read_request(const SessionArgs& given, const SpecReader& read, const Narrowing& narrowing,
                     const std::vector<std::unique_ptr<Method>>& all);

// The completion log's points with their configs as this version writes them (named values), so
// that a log written before values had names resumes without measuring its points again.
std::vector<DoneEntry> named_history(std::vector<DoneEntry> done,
                                     const std::vector<RunPlan>& plans);

}  // namespace gb::cli
