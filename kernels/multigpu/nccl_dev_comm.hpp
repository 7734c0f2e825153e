// NCCL device communicators (the device API of NCCL >= 2.28) over a team's NcclComms: one per
// local member, with the LSA barriers a kernel asks for and multimem off (NVLink SHARP multicast
// must never be used on the shared machines). GB_HAVE_NCCL_DEVICE_API says whether this build
// has the API: NCCL found, version >= 2.28 and its nccl_device.h present.
#pragma once
#ifdef GPUBARRIER_HAVE_NCCL
#include <nccl.h>
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0) && \
    __has_include(<nccl_device.h>)
#define GB_HAVE_NCCL_DEVICE_API 1
#endif
#endif

#ifdef GB_HAVE_NCCL_DEVICE_API
// nccl_device/utility.h uses size_t without including a header for it.
#include <cstddef>

#include <nccl_device.h>

#include <vector>

#include "core/run_context.hpp"
#include "errors/errors.hpp"
#include "runtime/nccl_comm.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// ncclDevCommCreate refused the team (e.g. no symmetric memory support) or NCCL's LSA team does
// not hold every GPU of it: the configuration cannot run here. what() is NCCL's own error text.
class NcclDeviceUnsupported : public Error {
 public:
  using Error::Error;
};

class NcclDevComms {
 public:
  // Collective, over every member at once (ncclDevCommCreate is a collective call). Throws
  // NcclDeviceUnsupported on every rank when any member was refused.
  NcclDevComms(const RunContext& ctx, const Team& team, const NcclComms& comms, int lsa_barriers);
  // Collective; no kernel that uses the device communicators may still run.
  ~NcclDevComms();
  NcclDevComms(const NcclDevComms&) = delete;
  NcclDevComms& operator=(const NcclDevComms&) = delete;

  // Local member l's device communicator, as its kernel takes it (by value).
  ncclDevComm& at(int local) { return devs_[local]; }

 private:
  void destroy() noexcept;

  const Team& team_;
  const NcclComms& comms_;
  std::vector<ncclDevComm> devs_;
  std::vector<char> made_;
};

}  // namespace gb::mg
#endif
