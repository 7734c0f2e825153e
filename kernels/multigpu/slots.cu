// multigpu.device.slots: no count on the critical path: every block writes its epoch into its own
// slot on every GPU (its own included) as soon as it arrives, each write a system-scope release
// of what the block wrote, and then the block's threads poll all members x blocks slots of their
// own GPU. The NVLink latency of each block's signal overlaps the arrival of the others, where
// `push` first completes the GPU's count and only then signals. The price is polling: every
// waiting block reads members x blocks words (its threads share them). A measured negative
// result, kept for what it shows (results/README.md).
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

struct Slots {
  static constexpr std::string_view name = "multigpu.device.slots";
  static constexpr std::string_view summary =
      "every block writes its epoch into its own slot on every GPU when it arrives and polls all "
      "slots of its GPU (no count before the NVLink signal).";

  // Its words: members x blocks per GPU; word m * blocks + b is block b of member m's.
  using Hooks = HookList<hook::WordsBytes>;
  static std::size_t words_bytes(int blocks, int members) {
    return sizeof(Word) * static_cast<std::size_t>(blocks) * static_cast<std::size_t>(members);
  }
  struct Args {};

  __device__ static bool cross(const BarrierArgs& a, const Args&, Word e) {
    const Ordering o = a.ordering;
    const int blocks = static_cast<int>(gridDim.x);
    const int slot = a.member * blocks + static_cast<int>(blockIdx.x);
    __syncthreads();  // the block's writes, ordered before the releases below
    for (int j = static_cast<int>(threadIdx.x); j < a.members; j += blockDim.x) {
      fence_if_relaxed(o);
      store_signal(&a.words_of<Word>((a.member + j) % a.members)[slot], e, o);
    }
    bool good = true;
    if (a.waits()) {
      const Word* mine = a.own_words<Word>();
      const int total = a.members * blocks;
      for (int i = static_cast<int>(threadIdx.x); good && i < total; i += blockDim.x)
        good = wait_at_least(&mine[i], e, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
    }
    return __syncthreads_and(good) != 0;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Slots>)
