#include "runtime/launcher.hpp"

#include <cstdlib>
#include <vector>

#include "core/faults.hpp"
#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/mpi_thread_level.hpp"
#include "runtime/rank_exchange.hpp"

namespace gb {
namespace {

#ifdef GPUBARRIER_HAVE_MPI
MPI_Comm g_agreement_comm = MPI_COMM_NULL;  // agreement_max's, from init to finalize

// The collectives of core/launch.hpp over MPI_COMM_WORLD; called only under MPI.
class MpiTransport final : public RankTransport {
 public:
  std::string library_version() const override {
    char buf[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(buf, &len);
    std::string v(buf, len);
    const auto cut = v.find_first_of(",\n");
    return cut == std::string::npos ? v : v.substr(0, cut);
  }

  void max_in_place(std::vector<double>& values) const override {
    GB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                               MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  }

  double agreement_max(double value) const override {
    GB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, g_agreement_comm));
    return value;
  }

  std::vector<int> gather(int value, int size) const override {
    std::vector<int> all(static_cast<std::size_t>(size));
    GB_MPI_CHECK(MPI_Allgather(&value, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD));
    return all;
  }

  std::vector<double> gather(const std::vector<double>& values, int size) const override {
    const int count = static_cast<int>(values.size());
    std::vector<double> all(values.size() * static_cast<std::size_t>(size));
    GB_MPI_CHECK(MPI_Allgather(values.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE,
                               MPI_COMM_WORLD));
    return all;
  }

  std::vector<std::string> gather_strings(const std::string& value, int size) const override {
    return mpi_gather_strings(value, size);
  }

  std::string broadcast_string(const std::string& value, int rank, int root) const override {
    return mpi_broadcast_string(value, rank, root);
  }

  void barrier() const override { GB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); }
};

const RankTransport& mpi_transport() {
  static const MpiTransport transport;
  return transport;
}
#endif

}  // namespace

bool started_by_launcher() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(var)) return true;
  // A batch script has SLURM_PROCID too; only a job step launched by srun has a step id.
  return std::getenv("SLURM_PROCID") && std::getenv("SLURM_STEP_ID");
}

Launch local_launch() {
  Launch launch;
#ifdef GPUBARRIER_HAVE_MPI
  launch.mpi_available = true;
  launch.transport = &mpi_transport();
#endif
  return launch;
}

Launch init_launch(int* argc, char*** argv, MpiThreadLevel thread_level) {
  Launch launch = local_launch();
  const int requested = mpi_thread_level_value(thread_level);
#ifdef GPUBARRIER_HAVE_MPI
  if (!started_by_launcher()) return launch;
  const int per_simulated_node = faults::ranks_per_node();  // a bad value fails before MPI too
  // Every MPI call of gpubarrier is made by the main thread (mpi mode runs its one member there),
  // so `single` suffices and is what the reference tools (OSU) measure at; Open MPI takes locks
  // in every call at the higher levels.
  int provided = 0;
  GB_MPI_CHECK(MPI_Init_thread(argc, argv, requested, &provided));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  launch.thread_level = mpi_thread_level_name(provided);
  if (provided < requested) {
    MPI_Finalize();
    throw UsageError("--mpi-thread-level " + std::string(name_of(thread_level)) +
                     ": this MPI provides only '" + launch.thread_level + "'");
  }
  launch.under_mpi = true;
  launch.launcher = "mpi";
  GB_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &launch.rank));
  GB_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &launch.size));
  MPI_Comm local;
  GB_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, launch.rank, MPI_INFO_NULL,
                                   &local));
  GB_MPI_CHECK(MPI_Comm_rank(local, &launch.local_rank));
  GB_MPI_CHECK(MPI_Comm_size(local, &launch.local_size));
  launch.shared_domain = launch.rank;
  GB_MPI_CHECK(MPI_Bcast(&launch.shared_domain, 1, MPI_INT, 0, local));
  MPI_Comm_free(&local);
  GB_MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &g_agreement_comm));
  MPI_Comm_set_errhandler(g_agreement_comm, MPI_ERRORS_RETURN);
  int leader = launch.local_rank == 0 ? 1 : 0;
  GB_MPI_CHECK(MPI_Allreduce(&leader, &launch.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (per_simulated_node > 0) {
    launch.simulated_nodes = true;
    launch.ranks_per_simulated_node = per_simulated_node;
    launch.nodes = (launch.size + per_simulated_node - 1) / per_simulated_node;
  }
  set_process_rank(launch.rank, launch.size);
#else
  (void)argc;
  (void)argv;
  (void)requested;
#endif
  return launch;
}

void finalize_launch(const Launch& launch) {
#ifdef GPUBARRIER_HAVE_MPI
  if (!launch.under_mpi) return;
  if (g_agreement_comm != MPI_COMM_NULL) MPI_Comm_free(&g_agreement_comm);
  MPI_Finalize();
#else
  (void)launch;
#endif
}

}  // namespace gb
