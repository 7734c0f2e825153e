#ifdef GPUBARRIER_HAVE_NCCL
#include "team/nccl_comm.hpp"

#include <cstdlib>

#include "core/cuda_check.hpp"
#include "core/mpi_check.hpp"
#include "team/nccl_check.hpp"

namespace gb::mg {

NcclComms::NcclComms(const Team& team) : comms_(team.local_count(), nullptr) {
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  if (team.mode() == Mode::threads) {
    std::vector<int> devices;
    for (int l = 0; l < team.local_count(); ++l) devices.push_back(team.device(l));
    GB_NCCL_CHECK(ncclCommInitAll(comms_.data(), team.local_count(), devices.data()));
    return;
  }
#ifdef GPUBARRIER_HAVE_MPI
  ncclUniqueId id;
  if (team.member(0) == 0) GB_NCCL_CHECK(ncclGetUniqueId(&id));
  GB_MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
  GB_CUDA_CHECK(cudaSetDevice(team.device(0)));
  GB_NCCL_CHECK(ncclCommInitRank(&comms_[0], team.size(), id, team.member(0)));
#endif
}

NcclComms::~NcclComms() {
  for (ncclComm_t c : comms_)
    if (c) ncclCommDestroy(c);
}

}  // namespace gb::mg
#endif
