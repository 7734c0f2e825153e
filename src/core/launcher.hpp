// How this process was started (alone, or as one rank under mpirun/srun) and the few collective
// operations the techniques need. Outside MPI every collective is the identity.
#pragma once

#include <string>
#include <vector>

#include "core/node_layout.hpp"

namespace gb {

struct Launch {
  bool under_mpi = false;      // started by mpirun/srun, MPI initialised
  bool mpi_available = false;  // built with MPI
  std::string launcher = "single";
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;
  int nodes = 1;
  // Test only (GPUBARRIER_TEST_RANKS_AS_NODES, core/faults.hpp): every
  // `ranks_per_simulated_node` consecutive ranks count as one node; 0 when off.
  bool simulated_nodes = false;
  int ranks_per_simulated_node = 0;
  // The lowest world rank that shares this rank's memory (MPI_COMM_TYPE_SHARED); 0 outside MPI.
  int shared_domain = 0;
  // Which ranks share a node (core/node_layout.hpp), set by the session once it knows every
  // rank's node name; empty until then (and outside MPI), which counts as one node.
  NodeLayout layout;
  // The thread support MPI_Init_thread provided (core/mpi_thread_level.hpp); "" outside MPI.
  std::string thread_level;

  bool is_root() const { return rank == 0; }
  // Element-wise maximum over ranks (a step is as slow as its slowest rank).
  void max_in_place(std::vector<double>& values) const;
  double max(double value) const;
  // max(value) on a communicator of its own (a duplicate of MPI_COMM_WORLD), for agreement
  // points (core/agreement.hpp): they meet only each other, never a rank's other collectives, so
  // a rank that broke the protocol hangs there instead of mixing up another collective's data.
  double agreement_max(double value) const;
  // Every rank's `value`, in rank order ({value} outside MPI).
  std::vector<int> gather(int value) const;
  // Every rank's `values` (the same count on every rank), concatenated in rank order
  // (`values` outside MPI).
  std::vector<double> gather(const std::vector<double>& values) const;
  void barrier() const;
};

// True when the environment shows mpirun (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK) or srun
// (SLURM_PROCID together with SLURM_STEP_ID) started this process.
bool started_by_launcher();

// This process alone, MPI not initialised (for commands that never need ranks).
Launch local_launch();

// Initialises MPI only when started_by_launcher(), asking for thread support `thread_level`
// ("single", "funneled", ...); sets the process label used in errors. Fails when MPI provides
// less than asked.
Launch init_launch(int* argc, char*** argv, const std::string& thread_level = "single");
void finalize_launch(const Launch& launch);

// "Open MPI v4.1.4" or "none".
std::string mpi_library_version();

}  // namespace gb
