#include "runtime/mpi_thread_level.hpp"

#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"

namespace gb {
namespace {

#ifdef GPUBARRIER_HAVE_MPI
// In the enum's order.
constexpr int kValues[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                           MPI_THREAD_MULTIPLE};
#endif

}  // namespace

MpiThreadLevel parse_mpi_thread_level(std::string_view name) {
  if (const std::optional<MpiThreadLevel> level = from_name<MpiThreadLevel>(name)) return *level;
  throw UsageError("--mpi-thread-level '" + std::string(name) +
                   "': expected single, funneled, serialized or multiple");
}

std::string mpi_thread_level_name(int level) {
#ifdef GPUBARRIER_HAVE_MPI
  for (std::size_t i = 0; i < std::size(kValues); ++i)
    if (kValues[i] == level) return std::string(kMpiThreadLevelNames[i].name);
#else
  (void)level;
#endif
  return "";
}

int mpi_thread_level_value(MpiThreadLevel level) {
#ifdef GPUBARRIER_HAVE_MPI
  return kValues[static_cast<std::size_t>(level)];
#else
  (void)level;
  return -1;
#endif
}

}  // namespace gb
