// The push algorithm (multigpu.device.push, kernels/multigpu/push.cu; also the barrier of
// reduction.multi.device-barrier), run by the crossing of the public device barrier that users
// include (include/gpubarrier/device_barrier.cuh, its contract there): no release hop: every block
// waits for its own GPU's arrival count to complete (as a grid barrier does) and for the peers'
// signals in its GPU's inbox; the block that completes the count pushes the epoch into every peer's
// inbox, in the peer's own memory. A crossing costs the arrival count, one NVLink write and the
// poll that sees it. The count stays inside the GPU (device scope); only the words that cross to
// peers are system-scope signals. The lanes of warp 0 share the peers: lane k sends to and polls
// peers k, k+32, ..., so that with N GPUs the N-1 signals (each with its own system-scope release)
// and polls are in flight together, not one after the other.
//
// Axis `part` (the phase experiment of configs/sweeps/push-phases.yaml; whole in every other use):
// whole = the whole barrier; gather = the gather alone (every block waits for its GPU's count;
// nothing crosses NVLink); gather-send = the gather and the sends (the completing block still
// signals every peer; nobody waits for a peer); exchange = the exchange alone (block 0 of every
// GPU signals every peer and waits for every peer's signal; no count, the other blocks pass). The
// parts other than the whole are not barriers across GPUs: their rows are timed, not checked, and
// say so. Whole - part 2 is what waiting for the peers adds
// after this GPU has sent; part 1 + part 3 against the whole shows how much of the gather and the
// exchange overlap, or add up.
//
// Axis `count_poll`: how every block waits for its GPU's count: acquire-load (the default) = an
// acquire load at every poll; relaxed-then-fence = relaxed polls and one device-scope acquire
// fence once complete, as CUDA's grid.sync waits (fence.acquire.gpu where the toolchain has it,
// else fence.acq_rel.gpu: frame/signals.cuh, acquire_fence). The second is kept to compare the
// two waits; the first is the default because the second was not faster (results/README.md,
// "Where push's time goes").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/method.hpp"
#include "gpubarrier/push_crossing.cuh"
#include "multigpu/frame/algorithm.cuh"
#include "multigpu/frame/crossing.cuh"

namespace gb::mg {

static_assert(gpubarrier::kMaxGpus == kMaxMembers && std::is_same_v<gpubarrier::Epoch, Word>,
              "push's words are the public device barrier's");

enum class PushPart { whole = 0, gather = 1, gather_send = 2, exchange = 3 };
enum class CountPoll { acquire_load = 0, relaxed_then_fence = 1 };

struct Push : Algorithm {
  static inline const MethodInfo info{
      .name = "multigpu.device.push",
      .description =
          "each GPU writes its epoch into every peer's inbox in the peer's own memory and spins on "
          "its local inbox.",
      .axes = {
          {"part",
           {0},
           {{PushPart::whole, "whole", "the whole barrier"},
            {PushPart::gather, "gather", "the gather alone: every block waits for its GPU's count"},
            {PushPart::gather_send, "gather-send",
             "the gather and the sends: nobody waits for a peer"},
            {PushPart::exchange, "exchange",
             "the exchange alone: block 0 of every GPU signals and waits for peers"}}},
          {"count_poll",
           {0},
           {{CountPoll::acquire_load, "acquire-load",
             "every block polls its GPU's count with an acquire load"},
            {CountPoll::relaxed_then_fence, "relaxed-then-fence",
             "relaxed polls, then one device-scope acquire fence (as CUDA's grid.sync waits)"}}}}};

  // The inbox (from every member) and the count of this GPU's blocks that reached the barrier.
  using Words = gpubarrier::DeviceBarrierWords;
  struct Args {
    PushPart part = PushPart::whole;
    bool count_fence = false;  // count_poll=relaxed-then-fence
  };

  template <class P>
  static Args args(const P& setup, int) {
    return {
        setup.point.choice("part", PushPart::whole),
        setup.point.choice("count_poll", CountPoll::acquire_load) == CountPoll::relaxed_then_fence};
  }
  static std::string infeasible(const Point& p) {
    if (p.choice("part", PushPart::whole) != PushPart::whole && p.get("fault", 0) != 0)
      return "part 1-3 time a phase: fault must be 0";
    return {};
  }
  static std::string unverified(const Point& p) {
    static constexpr const char* kParts[] = {"", "the gather alone", "the gather and the sends",
                                             "the exchange alone"};
    const PushPart part = p.choice("part", PushPart::whole);
    if (part == PushPart::whole) return {};
    const int k = static_cast<int>(part);
    return "part=" + std::to_string(k) + " times " + kParts[k] +
           " of push, not a barrier across GPUs (the phase experiment of "
           "configs/sweeps/push-phases.yaml)";
  }
  static constexpr Traits traits{.infeasible = &infeasible, .unverified = &unverified};

  // The crossing is the public device barrier's (gpubarrier/push_crossing.cuh), the code
  // users include: the whole barrier at release/acquire is its DeviceBarrier's operations
  // (ReleaseAcquire), with the frame's watchdog; the other orderings, the count's other wait and
  // the parts bring their own operations and steps (FrameOps). Each combination is compiled for
  // itself, with no branch on `part` or `count_poll` left in the whole barrier's path: on one
  // H200 those branches, like the ordering's (runtime/barrier_args.cuh, OrderedArgs), showed in
  // the crossing's time.
  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args& x, Word e) {
    using gpubarrier::PushSteps;
    const FrameWatch watch{a.self, a.watchdog_ns};
    if (x.part == PushPart::whole && !x.count_fence) {
      const PushSteps whole{true, true, true, a.waits(), false};
      if (a.ordering == Ordering::acquire_release)
        return crossing(a, gpubarrier::ReleaseAcquire<FrameWatch>{watch}, whole, e);
      return crossing(a, FrameOps<false>{watch, a.ordering}, whole, e);
    }
    const PushSteps steps{
        x.part != PushPart::exchange, x.part != PushPart::gather,
        x.part == PushPart::whole || (x.part == PushPart::exchange && blockIdx.x == 0), a.waits(),
        blockIdx.x == 0};
    if (x.count_fence) return crossing(a, FrameOps<true>{watch, a.ordering}, steps, e);
    return crossing(a, FrameOps<false>{watch, a.ordering}, steps, e);
  }

 private:
  // The frame's watchdog (frame/signals.cuh, gave_up): the first spin to expire raises the GPU's
  // abort word and counts a timeout, so that every block leaves the kernel.
  struct FrameWatch {
    Control* self;
    std::uint64_t budget_ns;
    __device__ bool give_up(std::uint64_t& deadline, unsigned polls) const {
      if (polls == gpubarrier::kCheckEvery) deadline = dev::global_ns() + budget_ns;
      return gave_up(self, deadline);
    }
  };

  // The crossing's operations at the frame's orderings (runtime/barrier_args.cuh): relaxed
  // signals with fences where a block arrives and leaves (1, 2), none (3), or release/acquire (0);
  // CountFence (count_poll=1): the count polled relaxed, then one acquire fence.
  template <bool CountFence>
  struct FrameOps {
    FrameWatch watch;
    Ordering o;
    __device__ Word arrive(Word* count) const {
      fence_if_relaxed<cuda::thread_scope_device>(o);  // this block's writes, before its arrival
      cuda::atomic_ref<Word, cuda::thread_scope_device> arrived(*count);
      return o == Ordering::acquire_release ? arrived.fetch_add(1, cuda::memory_order_acq_rel)
                                            : arrived.fetch_add(1, cuda::memory_order_relaxed);
    }
    __device__ void send(Word* inbox, Word e) const {
      fence_if_relaxed(o);
      store_signal(inbox, e, o);
    }
    __device__ bool wait_count(const Word* p, Word t) const {
      constexpr auto gpu = cuda::thread_scope_device;
      if (CountFence) return wait_then_acquire<gpu>(p, t, o, watch.self, watch.budget_ns);
      return wait_at_least<gpu>(p, t, o, watch.self, watch.budget_ns);
    }
    __device__ bool wait_peer(const Word* p, Word t) const {
      return wait_at_least(p, t, o, watch.self, watch.budget_ns);
    }
    __device__ void after_count() const { fence_if_relaxed<cuda::thread_scope_device>(o); }
    __device__ void after_peers() const { fence_if_relaxed(o); }
  };

  template <class Bar, class Ops>
  __device__ static bool crossing(const Bar& a, const Ops& ops, const gpubarrier::PushSteps& steps,
                                  Word e) {
    return gpubarrier::push_cross(
        ops, a.template own_words<Words>(), [&](int j) { return a.template words_of<Words>(j); },
        a.member, a.members, e, steps);
  }
};

}  // namespace gb::mg
