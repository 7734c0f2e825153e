// multigpu.device.dissemination: after each GPU's own gather, ceil(log2 n) rounds; in round k
// member m signals member m + 2^k and waits for member m - 2^k (any n, not only powers of 2).
#include "core/registry.hpp"
#include "multigpu/detail/gpu_gather.cuh"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

struct Dissemination : Algorithm {
  static inline const MethodInfo info{.name = "multigpu.device.dissemination",
                                      .description =
                                          "ceil(log2 N) rounds of pairwise signals: round k "
                                          "signals GPU i+2^k, waits for GPU i-2^k."};
  static constexpr Traits traits{};

  static constexpr int kMaxRounds = 6;  // ceil(log2(kMaxMembers))
  struct Words {
    GpuGather gather;
    Word round[kMaxRounds];  // round k's signal from member - 2^k
  };

  // After the rounds every member has heard, directly or transitively, from every other.
  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args&, Word e) {
    const Ordering o = a.ordering;
    const int m = a.member, n = a.members;
    Words* self = a.template own_words<Words>();
    return gather_exchange_release(a, self->gather, e, [&](bool wait) {
      for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
        store_signal(&a.template words_of<Words>((m + d) % n)->round[k], e, o);
        if (!wait) continue;
        if (!wait_at_least(&self->round[k], e, o, a.self, a.watchdog_ns)) return false;
        fence_if_relaxed(o);
      }
      return true;
    });
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Dissemination>)
