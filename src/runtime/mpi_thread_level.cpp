#include "runtime/mpi_thread_level.hpp"

#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"

namespace gb {
namespace {

#ifdef GPUBARRIER_HAVE_MPI
constexpr int kValues[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                           MPI_THREAD_MULTIPLE};
#endif

}  // namespace

const std::vector<std::string>& mpi_thread_level_names() {
  static const std::vector<std::string> names{"single", "funneled", "serialized", "multiple"};
  return names;
}

int mpi_thread_level_rank(std::string_view name) {
  const auto& names = mpi_thread_level_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  throw UsageError("--mpi-thread-level '" + std::string(name) +
                   "': expected single, funneled, serialized or multiple");
}

std::string mpi_thread_level_name(int level) {
#ifdef GPUBARRIER_HAVE_MPI
  for (std::size_t i = 0; i < std::size(kValues); ++i)
    if (kValues[i] == level) return mpi_thread_level_names()[i];
#else
  (void)level;
#endif
  return "";
}

int mpi_thread_level_value(std::string_view name) {
  const int rank = mpi_thread_level_rank(name);
#ifdef GPUBARRIER_HAVE_MPI
  return kValues[rank];
#else
  (void)rank;
  return -1;
#endif
}

}  // namespace gb
