// One NCCL communicator per member of a team: ncclCommInitAll in threads mode, ncclCommInitRank
// with the unique id broadcast by MPI in mpi mode. NVLink SHARP (multicast) stays off unless the
// user set NCCL_NVLS_ENABLE: the shared GPU machines must never create multicast objects.
// Communicators made before a failure are destroyed with the reason reported, never thrown.
#pragma once
#ifdef GPUBARRIER_HAVE_NCCL
#include <nccl.h>

#include <vector>

#include "runtime/team.hpp"

namespace gb::mg {

class NcclComms {
 public:
  explicit NcclComms(const Team& team);  // collective
  ~NcclComms() { destroy(); }
  NcclComms(const NcclComms&) = delete;
  NcclComms& operator=(const NcclComms&) = delete;

  ncclComm_t at(int local) const { return comms_[local]; }

 private:
  void destroy() noexcept;
  void make(const Team& team);
  std::vector<ncclComm_t> comms_;
};

}  // namespace gb::mg
#endif
