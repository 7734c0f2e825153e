// The MPI thread support level a run asks MPI_Init_thread for (`--mpi-thread-level`), by name.
// It is a process-wide setting with a real cost: Open MPI 4.1 takes locks inside every call at any
// level above `single` (results/README.md, "MPI thread level"), so the level a row was measured
// at is written in its `mpi_thread_level` column.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "core/names.hpp"

namespace gb {

// In the MPI standard's order, each level including the ones before it.
enum class MpiThreadLevel { single, funneled, serialized, multiple };
inline constexpr std::array<Named<MpiThreadLevel>, 4> kMpiThreadLevelNames{{
    {MpiThreadLevel::single, "single"},
    {MpiThreadLevel::funneled, "funneled"},
    {MpiThreadLevel::serialized, "serialized"},
    {MpiThreadLevel::multiple, "multiple"},
}};
constexpr const auto& name_table(MpiThreadLevel) {
  return kMpiThreadLevelNames;
}

// The level named `name`; throws UsageError naming the accepted names otherwise.
MpiThreadLevel parse_mpi_thread_level(std::string_view name);

// The name of MPI_THREAD_* constant `level`, "" for a value that is none of them. Without MPI
// only "" (there are no constants to compare with).
std::string mpi_thread_level_name(int level);

// The MPI_THREAD_* constant of `level`; -1 without MPI.
int mpi_thread_level_value(MpiThreadLevel level);

}  // namespace gb
