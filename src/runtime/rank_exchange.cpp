#include "runtime/rank_exchange.hpp"

#include <algorithm>

#include "runtime/mpi_check.hpp"

namespace gb {

#ifdef GPUBARRIER_HAVE_MPI
std::vector<std::string> mpi_gather_strings(const std::string& value, int size) {
  int length = static_cast<int>(value.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  GB_MPI_CHECK(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD));
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  GB_MPI_CHECK(MPI_Allgatherv(value.data(), length, MPI_CHAR, all.data(), lengths.data(),
                              offsets.data(), MPI_CHAR, MPI_COMM_WORLD));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

std::string mpi_broadcast_string(const std::string& value, int rank, int root) {
  unsigned long long length = value.size();
  GB_MPI_CHECK(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD));
  std::string out = rank == root ? value : std::string(length, '\0');
  // In chunks: an MPI count is an int, a resume log of a long sweep may outgrow it one day.
  constexpr unsigned long long kChunk = 1ull << 30;
  for (unsigned long long at = 0; at < length; at += kChunk) {
    const int n = static_cast<int>(std::min(kChunk, length - at));
    GB_MPI_CHECK(MPI_Bcast(out.data() + at, n, MPI_CHAR, root, MPI_COMM_WORLD));
  }
  return out;
}
#endif

}  // namespace gb
