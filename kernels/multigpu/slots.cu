// multigpu.device.slots: no count on the critical path: every block writes its epoch into its own
// slot on every GPU (its own included) as soon as it arrives, each write a system-scope release
// of what the block wrote, and then the block's threads poll all members x blocks slots of their
// own GPU. The NVLink latency of each block's signal overlaps the arrival of the others, where
// `push` first completes the GPU's count and only then signals. The price is polling: every
// waiting block reads members x blocks words (its threads share them); `gpubarrier report floor`
// on a run of configs/sweeps/floor.yaml sets what that costs beside push (docs/techniques.md).
//
// Axis `scan`, how the threads wait for the slots: acquire-per-poll = each thread waits for its
// slots one after the other with an acquire load at every poll (an L1 invalidation each);
// relaxed-then-fence = each thread polls all of its slots not yet seen complete with relaxed
// loads, all in flight at once, and acquires once with a fence when all are complete
// (frame/signals.cuh, block_wait_all).
//
// Why relaxed-then-fence is correct under the PTX memory model (ordering 0, release-acquire):
// writer block W on GPU A: its threads' writes P, then __syncthreads (bar.sync: P precedes thread
// j's next operations in causality order), then thread j's st.release.sys of epoch e into W's slot
// on GPU j: a release pattern at system scope. Reader thread t on GPU B reads that slot with
// ld.relaxed.sys until it holds e or later (a later epoch is W's own later release store, whose
// release covers P as well), then executes fence.acquire.sys (fence.acq_rel.sys before CUDA
// 12.8): a strong read followed by an acquire fence, an acquire pattern. Both at system scope,
// so morally strong: W's release synchronizes with t's acquire and P precedes t's later reads;
// __syncthreads_and (bar.sync) carries that to every thread of t's block. Ordering 1 and 2 use
// their fences on both sides the same way; fault=3 (unordered) drops them, and the payload
// check is there to catch it.
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

struct Slots : Algorithm {
  // Its words: members x blocks per GPU; word m * blocks + b is block b of member m's.
  static std::size_t words_bytes(int blocks, int members) {
    return sizeof(Word) * static_cast<std::size_t>(blocks) * static_cast<std::size_t>(members);
  }
  static constexpr Traits traits{.words_bytes = &words_bytes};
  enum class Scan { acquire_per_poll = 0, relaxed_then_fence = 1 };
  static inline const MethodInfo info{
      .name = "multigpu.device.slots",
      .description =
          "every block writes its epoch into its own slot on every GPU when it arrives and polls "
          "all slots of its GPU (no count before the NVLink signal).",
      .axes = {
          {"scan",
           {0},
           {{Scan::acquire_per_poll, "acquire-per-poll",
             "every thread waits for its slots one after the other, an acquire load at every "
             "poll"},
            {Scan::relaxed_then_fence, "relaxed-then-fence",
             "every thread polls all its unfinished slots with relaxed loads at once, then one "
             "acquire fence"}}}}};
  struct Args {
    bool scan = false;  // scan=relaxed-then-fence
  };
  template <class P>
  static Args args(const P& setup, int) {
    return {setup.point.choice("scan", Scan::acquire_per_poll) == Scan::relaxed_then_fence};
  }

  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args& x, Word e) {
    const Ordering o = a.ordering;
    const int blocks = static_cast<int>(gridDim.x);
    const int slot = a.member * blocks + static_cast<int>(blockIdx.x);
    __syncthreads();  // the block's writes, ordered before the releases below
    for (int j = static_cast<int>(threadIdx.x); j < a.members; j += blockDim.x) {
      fence_if_relaxed(o);
      store_signal(&a.template words_of<Word>((a.member + j) % a.members)[slot], e, o);
    }
    bool good = true;
    if (a.waits()) {
      const Word* mine = a.template own_words<Word>();
      const int total = a.members * blocks;
      if (x.scan) return block_wait_all(mine, total, e, o, a.self, a.watchdog_ns);
      for (int i = static_cast<int>(threadIdx.x); good && i < total; i += blockDim.x)
        good = wait_at_least(&mine[i], e, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
    }
    return __syncthreads_and(good) != 0;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Slots>)
