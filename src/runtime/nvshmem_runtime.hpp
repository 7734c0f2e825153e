// NVSHMEM for this process: one PE per rank on the rank's GPU, shared by every
// method that uses NVSHMEM (multigpu.nvshmem.barrier, multinode.hierarchical network=1). Part of
// the NVSHMEM target (cmake/Nvshmem.cmake): compiled only in a build with NVSHMEM.
#pragma once

#include <string>

#include "core/run_context.hpp"
#include "runtime/team.hpp"

namespace gb::nvshmem {

class Runtime {
 public:
  // The process's runtime, initialised at the first call: collective over every rank (all ranks
  // reach it in the same point). The UID bootstrap (rank 0's id broadcast over MPI: no MPI
  // plugin, no MPI ABI to match); NVSHMEM_DISABLE_NVLS=1, a 64 MiB symmetric heap and, where
  // every rank shares one machine (one node, or simulated nodes), NVSHMEM_REMOTE_TRANSPORT=none,
  // each unless the environment says otherwise. Throws Error when NVSHMEM cannot start, and then
  // at every later call with the same reason.
  static Runtime& get(const RunContext& ctx, const mg::Team& team);

  // A kernel is stuck inside NVSHMEM: do not finalise at exit (finalising would wait for it).
  void mark_stuck() { stuck_ = true; }
  // How this PE reaches `pe` for the symmetric address `sym`: "NVLink/P2P load-store" or
  // NVSHMEM's remote transport (with the environment that chose it).
  static std::string reach(const void* sym, int pe);

  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

 private:
  Runtime(const RunContext& ctx, const mg::Team& team);
  bool stuck_ = false;
};

}  // namespace gb::nvshmem
