// nvcc, not the host compiler: NCCL's device API headers are written for it.
#include "multigpu/nccl_dev_comm.hpp"
#ifdef GB_HAVE_NCCL_DEVICE_API

#include <string>

namespace gb::mg {
namespace {

ncclDevCommRequirements requirements(int lsa_barriers) {
#ifdef NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER
  ncclDevCommRequirements reqs = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;  // NCCL >= 2.29 checks it
#else
  ncclDevCommRequirements reqs{};
#endif
  reqs.lsaBarrierCount = lsa_barriers;
  reqs.lsaMultimem = false;
  return reqs;
}

std::string refusal(ncclComm_t comm, ncclResult_t rc, int lsa_barriers) {
  std::string s = "ncclDevCommCreate (lsaBarrierCount " + std::to_string(lsa_barriers) +
                  ", multimem off) failed: " + ncclGetErrorString(rc);
  if (const char* last = ncclGetLastError(comm); last && *last)
    s += "; NCCL's last error: " + std::string(last);
  return s;
}

}  // namespace

NcclDevComms::NcclDevComms(const RunContext& ctx, const Team& team, const NcclComms& comms,
                           int lsa_barriers)
    : team_(team), comms_(comms), devs_(team.local_count()), made_(team.local_count(), 0) {
  std::vector<std::string> why(team.local_count());
  // One thread per member, all at once: a single thread creating them one after the other would
  // wait in the first call for members that have not called yet.
  team.parallel([&](int l) {
    const ncclDevCommRequirements reqs = requirements(lsa_barriers);
    if (const ncclResult_t rc = ncclDevCommCreate(comms.at(l), &reqs, &devs_[l]);
        rc != ncclSuccess) {
      why[l] = refusal(comms.at(l), rc, lsa_barriers);
      return;
    }
    made_[l] = 1;
    // An LSA barrier only reaches the LSA team: GPUs that can load and store each other's memory.
    if (devs_[l].lsaSize != team.size())
      why[l] = "NCCL's LSA team (GPUs that reach each other by load/store) holds " +
               std::to_string(devs_[l].lsaSize) + " of the " + std::to_string(team.size()) +
               " GPUs: its barrier would not span them all";
  });
  std::string first;
  for (const std::string& w : why)
    if (first.empty()) first = w;
  // Every rank throws alike, so that none goes on to a collective that the others skip.
  if (ctx.max_over_ranks(first.empty() ? 0.0 : 1.0) == 0) return;
  destroy();
  throw NcclDeviceUnsupported(first.empty() ? "ncclDevCommCreate failed on another rank" : first);
}

NcclDevComms::~NcclDevComms() {
  destroy();
}

void NcclDevComms::destroy() noexcept {
  try {
    team_.parallel([&](int l) {
      if (made_[l]) ncclDevCommDestroy(comms_.at(l), &devs_[l]);
      made_[l] = 0;
    });
  } catch (...) {  // teardown: nothing left to do about a failed cudaSetDevice
  }
}

}  // namespace gb::mg
#endif
