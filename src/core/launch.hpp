// How this process was started (alone, or as one rank of several) and the few collective
// operations the techniques need, as the core sees them. The runtime starts MPI and implements the
// collectives (runtime/launcher.hpp: init_launch, RankTransport over MPI); the core reaches the
// other ranks only through this interface, so it does not depend on the runtime. Outside MPI
// every collective is the identity.
#pragma once

#include <string>
#include <vector>

namespace gb {

// Which ranks share a node (runtime/node_layout.hpp makes it from a key per rank).
struct NodeLayout {
  std::vector<int> node;       // node index of every rank; nodes numbered in order of lowest rank
  std::vector<int> local;      // every rank's index inside its node (in rank order)
  std::vector<int> node_size;  // ranks of every node, by node index
  std::vector<int> leaders;    // every node's leader (its lowest rank, node-local 0), by node index

  int nodes() const { return static_cast<int>(leaders.size()); }
  int ranks() const { return static_cast<int>(node.size()); }
  bool empty() const { return node.empty(); }
};

// The collectives between ranks, implemented by the runtime over MPI (runtime/launcher.cpp and
// runtime/rank_exchange.cpp). Called only while Launch::under_mpi; one object per process.
class RankTransport {
 public:
  virtual ~RankTransport() = default;
  // "Open MPI v4.1.4": the MPI library this process is built with (MPI need not be initialised).
  virtual std::string library_version() const = 0;
  virtual void max_in_place(std::vector<double>& values) const = 0;
  virtual double agreement_max(double value) const = 0;
  virtual std::vector<int> gather(int value, int size) const = 0;
  virtual std::vector<double> gather(const std::vector<double>& values, int size) const = 0;
  virtual std::vector<std::string> gather_strings(const std::string& value, int size) const = 0;
  virtual std::string broadcast_string(const std::string& value, int rank, int root) const = 0;
  virtual void barrier() const = 0;
};

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
  // Which ranks share a node (runtime/node_layout.hpp), set by the session once it knows every
  // rank's node name; empty until then (and outside MPI), which counts as one node.
  NodeLayout layout;
  // The thread support MPI_Init_thread provided (runtime/mpi_thread_level.hpp); "" outside MPI.
  std::string thread_level;
  // The runtime's collectives where built with MPI (set by local_launch and init_launch); null
  // without MPI.
  const RankTransport* transport = nullptr;

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
  // "Open MPI v4.1.4" or "none".
  std::string mpi_library_version() const;

 private:
  bool collective() const { return under_mpi && transport != nullptr; }
};

// This process's world rank as mpirun (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK) or an srun job
// step (SLURM_PROCID with SLURM_STEP_ID) tells it in the environment, read without MPI, so that it
// is known before MPI starts and where it never starts; 0 outside a launcher.
int launcher_rank();

// Strings between ranks: node names for the `node` column, the resume state that rank 0 reads
// and every rank must share. Outside MPI each is the identity.
// Every rank's `value`, in rank order ({value} outside MPI).
std::vector<std::string> gather_strings(const Launch& launch, const std::string& value);

// Rank `root`'s `value` on every rank.
std::string broadcast_string(const Launch& launch, const std::string& value, int root = 0);

}  // namespace gb
