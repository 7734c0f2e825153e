// A sweep file checked against the registered methods before anything runs: every method glob
// matches a method and every axis belongs to a method of its entry. Mistakes are reported at the
// glob or axis, as `file:line:column: key: what was expected; did you mean 'x'?`.
#pragma once

#include <vector>

#include "io/sweep_file.hpp"
#include "jobs/catalogue.hpp"

namespace gb::jobs {

struct CheckedEntry {
  const SweepEntry* entry = nullptr;
  std::vector<const MethodInfo*> methods;  // in catalogue order
};

// One CheckedEntry per run of the sweep, in file order. Throws gb::ParseError.
std::vector<CheckedEntry> check_sweep(const SweepFile& sweep, const Catalogue& catalogue);

}  // namespace gb::jobs
