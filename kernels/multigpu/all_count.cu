// multigpu.device.all-count: no leader and no second hop: every block adds its arrival to the
// counter of every GPU (its own in local memory, the peers' over NVLink) and waits until its own
// GPU's counter holds every block of every GPU. The cross-GPU latency overlaps the local arrivals.
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

// Counts with atomics on peer memory: skipped where the GPUs lack native peer atomics.
struct AllCount : Algorithm {
  static inline const MethodInfo info{.name = "multigpu.device.all-count",
                                      .description =
                                          "every block adds its arrival to every GPU's counter and "
                                          "waits on its own GPU's counter (no leader)."};
  static constexpr Traits traits{.peer_atomics = true};

  struct Words {
    Word counter;  // every block of every GPU
  };

  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args&, Word e) {
    const Ordering o = a.ordering;
    const Word complete = e * gridDim.x * static_cast<Word>(a.members);
    __shared__ bool ok;
    __syncthreads();
    if (threadIdx.x == 0) {
      fence_if_relaxed(o);  // this block's writes, before its arrivals leave
      for (int k = 0; k < a.members; ++k) {
        cuda::atomic_ref<Word, cuda::thread_scope_system> count(
            a.template words_of<Words>((a.member + k) % a.members)->counter);
        if (o == Ordering::acquire_release)
          count.fetch_add(1, cuda::memory_order_release);
        else
          count.fetch_add(1, cuda::memory_order_relaxed);
      }
      const Word* mine = &a.template own_words<Words>()->counter;
      const bool good = !a.waits() || wait_at_least(mine, complete, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
      ok = good;
    }
    __syncthreads();
    return ok;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::AllCount>)
