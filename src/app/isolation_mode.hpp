// Where a session's methods run (--isolate, docs/cluster.md "Isolation"): in this process, or
// each method or each point in a child process whose crash becomes a failed row and whose hang a
// timeout row. The command line is read into the enum; the session compares the enum.
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb::cli {

enum class Isolation {
  method,  // a child process per method (`sweep`'s default)
  point,   // a child process per point
  none,    // in this process (`run`'s default, and always under mpirun/srun)
};

// In the order --help lists them.
inline constexpr std::array<Named<Isolation>, 3> kIsolationNames{{
    {Isolation::method, "method"},
    {Isolation::point, "point"},
    {Isolation::none, "none"},
}};
constexpr const auto& name_table(Isolation) {
  return kIsolationNames;
}

}  // namespace gb::cli
