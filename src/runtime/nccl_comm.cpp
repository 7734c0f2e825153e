#ifdef GPUBARRIER_HAVE_NCCL
#include "runtime/nccl_comm.hpp"

#include <cstdlib>

#include "core/cuda_check.hpp"
#include "core/teardown.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/nccl_check.hpp"

namespace gb::mg {

NcclComms::NcclComms(const Team& team) : comms_(team.local_count(), nullptr) {
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  try {
    make(team);
  } catch (...) {
    destroy();  // the destructor does not run for a constructor that throws
    throw;
  }
}

void NcclComms::make(const Team& team) {
  if (team.mode() == Mode::threads) {
    std::vector<int> devices;
    for (int l = 0; l < team.local_count(); ++l) devices.push_back(team.device(l));
    GB_NCCL_CHECK(ncclCommInitAll(comms_.data(), team.local_count(), devices.data()));
    return;
  }
#ifdef GPUBARRIER_HAVE_MPI
  // Agreement points (core/agreement.hpp) before the broadcast and before NCCL's own collective
  // set-up: a rank that failed first meets the others there. A failure inside ncclCommInitRank
  // is not covered: the other ranks wait inside NCCL.
  ncclUniqueId id;
  if (team.member(0) == 0) GB_NCCL_CHECK(ncclGetUniqueId(&id));
  team.host_barrier();
  GB_MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
  GB_CUDA_CHECK(cudaSetDevice(team.device(0)));
  team.host_barrier();
  GB_NCCL_CHECK(ncclCommInitRank(&comms_[0], team.size(), id, team.member(0)));
#endif
}

void NcclComms::destroy() noexcept {
  for (ncclComm_t& c : comms_) {
    if (!c) continue;
    if (const ncclResult_t rc = ncclCommDestroy(c); rc != ncclSuccess)
      report_release_failure("an NCCL communicator", ncclGetErrorString(rc));
    c = nullptr;
  }
}

}  // namespace gb::mg
#endif
