#include "runtime/nvshmem_runtime.hpp"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdlib>
#include <cstring>

#include "core/cuda_check.hpp"
#include "core/launch.hpp"
#include "errors/errors.hpp"

namespace gb::nvshmem {
namespace {

// Sets `name` to `value` unless the environment already has it.
void default_env(const char* name, const char* value) { setenv(name, value, 0); }

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

Runtime& Runtime::get(const RunContext& ctx, const mg::Team& team) {
  static std::string failed;
  if (!failed.empty()) throw Error(failed);
  try {
    // A local static object, not a pointer set later: its destructor is registered once NVSHMEM
    // is up, after NVSHMEM's own exit handlers, so it finalises before they run (the other
    // order crashed every rank at exit).
    static Runtime runtime(ctx, team);
    return runtime;
  } catch (const std::exception& e) {
    failed = e.what();
    throw;
  }
}

Runtime::Runtime(const RunContext& ctx, const mg::Team& team) {
  // Never NVLink SHARP multicast on the shared machines; no network where every rank shares one.
  default_env("NVSHMEM_DISABLE_NVLS", "1");
  default_env("NVSHMEM_SYMMETRIC_SIZE", "64M");
  if (ctx.launch.nodes <= 1 || ctx.launch.simulated_nodes) {
    default_env("NVSHMEM_REMOTE_TRANSPORT", "none");
    default_env("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "lo");
  }
  nvshmemx_uniqueid_t id;
  std::string bytes;
  if (ctx.launch.rank == 0) {
    if (nvshmemx_get_uniqueid(&id) != 0) throw Error("nvshmemx_get_uniqueid failed");
    bytes.assign(reinterpret_cast<const char*>(&id), sizeof id);
  }
  team.host_barrier();
  bytes = broadcast_string(ctx.launch, bytes);
  if (bytes.size() != sizeof id) throw Error("NVSHMEM unique id: wrong size from rank 0");
  std::memcpy(&id, bytes.data(), sizeof id);
  GB_CUDA_CHECK(cudaSetDevice(team.device(0)));
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  if (nvshmemx_set_attr_uniqueid_args(ctx.launch.rank, ctx.launch.size, &id, &attr) != 0)
    throw Error("nvshmemx_set_attr_uniqueid_args failed");
  // nvshmemx_init_attr's own body, without its exit() on failure: a failed set-up must end as a
  // failed or skipped row, not a dead rank.
  int provided = 0;
  const nvshmemi_version_t version = {NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION,
                                      NVSHMEM_VENDOR_PATCH_VERSION};
  if (nvshmemi_init_thread(NVSHMEM_THREAD_SERIALIZED, &provided, NVSHMEMX_INIT_WITH_UNIQUEID,
                           &attr, version) != 0)
    throw Error("NVSHMEM initialisation (UID bootstrap) failed; NVSHMEM_DEBUG=INFO says why");
  if (nvshmem_n_pes() != ctx.launch.size || nvshmem_my_pe() != ctx.launch.rank)
    throw Error("NVSHMEM's PEs do not match the MPI ranks");
}

Runtime::~Runtime() {
  if (!stuck_) nvshmem_finalize();
}

std::string Runtime::reach(const void* sym, int pe) {
  if (nvshmem_ptr(sym, pe) != nullptr) return "NVLink/P2P load-store";
  return "NVSHMEM remote transport " + env_or("NVSHMEM_REMOTE_TRANSPORT", "ibrc (default)") +
         (env_or("NVSHMEM_IB_ENABLE_IBGDA", "0") == "1" ? " with IBGDA" : " without IBGDA");
}

}  // namespace gb::nvshmem
