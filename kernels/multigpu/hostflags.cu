// multigpu.device.hostflags: single-writer flags in host-mapped memory, member 0 gathers and
// releases (the cuda-samples PeerGroup::sync pattern), behind each GPU's own gather.
#include "core/registry.hpp"
#include "multigpu/detail/gpu_gather.cuh"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

// The PeerGroup::sync medium, in host-mapped memory: one single-writer word per member plus the
// release.
struct PeerGroupFlags {
  Word arrive[kMaxMembers];
  Word release;
};

struct Hostflags : Algorithm {
  static inline const MethodInfo info{
      .name = "multigpu.device.hostflags",
      .description =
          "single-writer flags in host-mapped memory, member 0 gathers and releases (the "
          "cuda-samples PeerGroup::sync pattern)."};
  static constexpr Traits traits{.host_bytes = sizeof(PeerGroupFlags)};

  struct Words {
    GpuGather gather;
  };
  struct Args {
    PeerGroupFlags* host = nullptr;  // as this GPU addresses it
  };
  static Args args(const AlgoSetup& s, int local) {
    return {static_cast<PeerGroupFlags*>(s.host_view(local))};
  }

  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args& x, Word e) {
    const Ordering o = a.ordering;
    const int m = a.member;
    auto await = [&](const Word* p) { return wait_at_least(p, e, o, a.self, a.watchdog_ns); };
    return gather_exchange_release(a, a.template own_words<Words>()->gather, e, [&](bool wait) {
      store_signal(&x.host->arrive[m], e, o);
      if (!wait) return true;
      if (m != 0) return await(&x.host->release);
      for (int j = 1; j < a.members; ++j)
        if (!await(&x.host->arrive[j])) return false;
      fence_if_relaxed(o);
      store_signal(&x.host->release, e, o);
      return true;
    });
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Hostflags>)
