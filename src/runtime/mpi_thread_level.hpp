// The MPI thread support level a run asks MPI_Init_thread for (`--mpi-thread-level`), by name.
// It is a process-wide setting with a real cost: Open MPI 4.1 takes locks inside every call at any
// level above `single` (results/README.md, "MPI thread level"), so the level a row was measured
// at is written in its `mpi_thread_level` column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gb {

// "single", "funneled", "serialized", "multiple", in the MPI standard's order.
const std::vector<std::string>& mpi_thread_level_names();

// The position of `name` in mpi_thread_level_names() (0 = single); throws UsageError naming the
// accepted names otherwise.
int mpi_thread_level_rank(std::string_view name);

// The name of MPI_THREAD_* constant `level`, "" for a value that is none of them. Without MPI
// only "" (there are no constants to compare with).
std::string mpi_thread_level_name(int level);

// The MPI_THREAD_* constant of `name` (as mpi_thread_level_rank checks it); -1 without MPI.
int mpi_thread_level_value(std::string_view name);

}  // namespace gb
