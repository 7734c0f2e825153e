// Strings between ranks over MPI (node names for the `node` column, the resume state that rank 0
// reads and every rank must share): the runtime's side of gather_strings and broadcast_string
// (core/launch.hpp), which call them only under MPI.
#pragma once

#include <string>
#include <vector>

namespace gb {

#ifdef GPUBARRIER_HAVE_MPI
// Every rank's `value`, in rank order; `size` ranks.
std::vector<std::string> mpi_gather_strings(const std::string& value, int size);

// Rank `root`'s `value` on every rank; `rank` is this one's.
std::string mpi_broadcast_string(const std::string& value, int rank, int root);
#endif

}  // namespace gb
