// multigpu.device.early-count: the system-scope release off the critical path. Every block
// releases its own writes at system scope BEFORE it arrives, all blocks in parallel, and then
// adds its arrival, relaxed and fire-and-forget (a reduction, no answer awaited), to its GPU's
// counter in every GPU's memory (its own included). Every block waits until each GPU's counter
// in its own memory holds all of that GPU's blocks, with relaxed polls and one acquire load
// once the count is complete. No gather precedes the signal and no release follows it: where
// push pays gather + release + signal one after the other, a block here pays its release, the
// one-way trip of its reduction and the wait for the slowest block.
//
// Why it is correct under the PTX memory model (ordering 0, release-acquire):
//   - Writer block W on GPU A: its threads' writes P, then __syncthreads (bar.sync: the writes
//     precede lane k's next operations in causality order), then lane k's fence.acq_rel.sys F
//     followed in program order by its red.relaxed.sys on counter[A] in GPU k's memory: a
//     release pattern (fence, then a strong write) at system scope.
//   - Reader block R on GPU B: lane k reads counter[A] in B's memory with ld.relaxed.sys until it
//     holds e * blocks, then once more with ld.acquire.sys: an acquire pattern.
//   - Every arrival is an atomic read-modify-write of the same location, so the write of each W
//     precedes, in observation order, the value R's acquire load reads (observation order runs
//     through atomic RMWs; the count only reaches e * blocks once every block of A has added).
//     Both sides are system scope, so morally strong: each W's release pattern synchronizes with
//     R's acquire pattern, P precedes R's later reads in causality order, and bar.sync carries
//     that to every thread of R's block. No thread needs a release after it has seen others.
//   - ordering 1 and 2 use relaxed loads and a fence.sc / fence.acq_rel at system scope once the
//     count is complete (the acquire pattern: strong read, then fence), and fence.sc for the
//     release under ordering 1. fault=3 (unordered) drops both fences; the check must catch it.
// Lanes k < members of warp 0 each talk to one GPU, so the members' reductions and polls are in
// flight together; the fence is one instruction for the warp.
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

// Adds with atomics on peer memory: skipped where the GPUs lack native peer atomics.
struct EarlyCount : Algorithm {
  static inline const MethodInfo info{
      .name = "multigpu.device.early-count",
      .description =
          "every block releases its own writes at system scope before it arrives, in parallel with "
          "the others, then adds its arrival (relaxed, no answer awaited) to its GPU's counter on "
          "every GPU and waits for every GPU's counter in its own memory: no release after a "
          "gather."};
  static constexpr Traits traits{.peer_atomics = true};

  struct alignas(128) Line {
    Word count;  // arrivals of one GPU's blocks
  };
  struct Words {
    Line from[kMaxMembers];  // from[m]: member m's blocks, added by them over NVLink
  };

  // The release before the arrival: fence.sc under ordering 1, fence.acq_rel under 0 and 2.
  __device__ static void release(Ordering o) {
    if (o == Ordering::relaxed_fenced)
      cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
    else if (o == Ordering::acquire_release || o == Ordering::relaxed_acq_rel)
      cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system);
  }

  // Waits until *p >= target with relaxed polls, then acquires: one ld.acquire.sys (ordering 0)
  // or a system-scope fence (1, 2); nothing when unordered.
  __device__ static bool acquire_at_least(const Word* p, Word target, const BarrierArgs& a) {
    const Ordering o = a.ordering;
    if (!wait_at_least(p, target, Ordering::unordered, a.self, a.watchdog_ns)) return false;
    if (o == Ordering::acquire_release)
      (void)load_signal(p, Ordering::acquire_release);
    else
      fence_if_relaxed(o);
    return true;
  }

  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args&, Word e) {
    __shared__ bool ok;
    __syncthreads();  // the block's writes, before lane k's release
    if (threadIdx.x < 32) {
      const int lane = static_cast<int>(threadIdx.x);
      for (int k = lane; k < a.members; k += 32) {
        release(a.ordering);
        cuda::atomic_ref<Word, cuda::thread_scope_system> count(
            a.template words_of<Words>((a.member + k) % a.members)->from[a.member].count);
        count.fetch_add(1, cuda::memory_order_relaxed);  // result unused: a reduction (RED)
      }
      bool good = true;
      if (a.waits()) {
        const Word complete = e * gridDim.x;
        for (int k = lane; good && k < a.members; k += 32)
          good = acquire_at_least(&a.template own_words<Words>()->from[k].count, complete, a);
      }
      good = __all_sync(0xffffffffu, good);
      if (lane == 0) ok = good;
    }
    __syncthreads();
    return ok;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::EarlyCount>)
