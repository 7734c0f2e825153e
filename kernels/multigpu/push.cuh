// The push algorithm (multigpu.device.push, kernels/multigpu/push.cu; also the barrier of
// reduction.multi.device-barrier): no release hop: every block waits for its own GPU's arrival
// count to complete (as a grid barrier does) and for the peers' signals in its GPU's inbox; the
// block that completes the count pushes the epoch into every peer's inbox, in the peer's own
// memory. A crossing costs the arrival count, one NVLink write and the poll that sees it. The count
// stays inside the GPU (device scope); only the words that cross to peers are system-scope signals.
// The lanes of warp 0 share the peers: lane k sends to and polls peers k, k+32, ..., so that with
// N GPUs the N-1 signals (each with its own system-scope release) and polls are in flight
// together, not one after the other.
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

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "multigpu/frame/algorithm.cuh"
#include "multigpu/frame/crossing.cuh"

namespace gb::mg {

enum class PushPart { whole = 0, gather = 1, gather_send = 2, exchange = 3 };
enum class CountPoll { acquire_load = 0, relaxed_then_fence = 1 };

struct Push : Algorithm {
  static constexpr std::string_view name = "multigpu.device.push";
  static constexpr std::string_view description =
      "each GPU writes its epoch into every peer's inbox in the peer's own memory and spins on "
      "its local inbox.";

  struct Words {
    alignas(128) Word arrive[kMaxMembers];  // the inbox: from every member
    alignas(128) Word arrived;              // blocks of this GPU that reached the barrier
  };
  struct Args {
    PushPart part = PushPart::whole;
    bool count_fence = false;  // count_poll=relaxed-then-fence
  };

  static std::vector<Axis> axes() {
    return {
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
           "relaxed polls, then one device-scope acquire fence (as CUDA's grid.sync waits)"}}}};
  }
  template <class P>
  static Args args(const P& setup, int) {
    return {
        setup.point.choice("part", PushPart::whole),
        setup.point.choice("count_poll", CountPoll::acquire_load) == CountPoll::relaxed_then_fence};
  }
  template <class Pt>
  static std::string infeasible(const Pt& p) {
    if (p.choice("part", PushPart::whole) != PushPart::whole && p.get("fault", 0) != 0)
      return "part 1-3 time a phase: fault must be 0";
    return {};
  }
  template <class Pt>
  static std::string unverified(const Pt& p) {
    static constexpr const char* kParts[] = {"", "the gather alone", "the gather and the sends",
                                             "the exchange alone"};
    const PushPart part = p.choice("part", PushPart::whole);
    if (part == PushPart::whole) return {};
    const int k = static_cast<int>(part);
    return "part=" + std::to_string(k) + " times " + kParts[k] +
           " of push, not a barrier across GPUs (the phase experiment of "
           "configs/sweeps/push-phases.yaml)";
  }

  // The whole barrier with the count polled by acquire loads (every use but the experiments)
  // takes a path compiled for it alone, with no branch on `part` or `count_poll` left in it: on
  // one H200 those branches, like the ordering's (runtime/barrier_args.cuh, OrderedArgs), showed
  // in the crossing's time.
  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args& x, Word e) {
    if (x.part == PushPart::whole && !x.count_fence) return cross_as<true>(a, x, e);
    return cross_as<false>(a, x, e);
  }

  // `Whole`: `given` is the default Args, known to the compiler as such.
  template <bool Whole, class Bar>
  __device__ static bool cross_as(const Bar& a, const Args& given, Word e) {
    constexpr auto gpu = cuda::thread_scope_device;
    constexpr unsigned kWarp = 0xffffffffu;
    const Args x = Whole ? Args{} : given;
    const Ordering o = a.ordering;
    const bool alone = a.members == 1;
    const bool gathers = x.part != PushPart::exchange;
    const bool sends = x.part != PushPart::gather;
    const bool polls_peers = x.part == PushPart::whole ||
                             (x.part == PushPart::exchange && blockIdx.x == 0);
    const Word complete = e * gridDim.x;
    Words* self = a.template own_words<Words>();
    __shared__ bool ok;
    __syncthreads();
    if (threadIdx.x < 32) {
      const int lane = static_cast<int>(threadIdx.x);
      bool last = false;
      if (lane == 0 && gathers) {
        cuda::atomic_ref<Word, gpu> arrived(self->arrived);
        fence_if_relaxed<gpu>(o);  // this block's writes, before its arrival
        const Word before = o == Ordering::acquire_release
                                ? arrived.fetch_add(1, cuda::memory_order_acq_rel)
                                : arrived.fetch_add(1, cuda::memory_order_relaxed);
        last = before + 1 == complete && !alone;
      } else if (lane == 0) {
        last = blockIdx.x == 0 && !alone;  // part 3: block 0 speaks for its GPU
      }
      // The lanes that send publish, each with its own system-scope fence (relaxed) or release
      // store, everything lane 0 observed through the count. The shuffle only moves the value;
      // __syncwarp (bar.warp.sync) is what orders lane 0's acquire before every sending lane's
      // fence or release store, so that lanes 1..31 publish what lane 0 acquired (3+ GPUs).
      const bool send = __shfl_sync(kWarp, last, 0);
      __syncwarp(kWarp);
      if (send && sends) {
        for (int k = lane; k < a.members - 1; k += 32) {
          const int j = (a.member + 1 + k) % a.members;
          fence_if_relaxed(o);
          store_signal(&a.template words_of<Words>(j)->arrive[a.member], e, o);
        }
      }
      bool good = true;
      if (a.waits()) {
        if (lane == 0 && gathers)
          good = x.count_fence
                     ? wait_then_acquire<gpu>(&self->arrived, complete, o, a.self, a.watchdog_ns)
                     : wait_at_least<gpu>(&self->arrived, complete, o, a.self, a.watchdog_ns);
        for (int k = lane; good && polls_peers && k < a.members - 1; k += 32)
          good = wait_at_least(&self->arrive[(a.member + 1 + k) % a.members], e, o, a.self,
                               a.watchdog_ns);
      }
      if (alone)
        fence_if_relaxed<gpu>(o);
      else if (lane == 0 || lane < a.members - 1)  // the lanes that polled
        fence_if_relaxed(o);
      good = __all_sync(kWarp, good);
      if (lane == 0) ok = good;
    }
    __syncthreads();
    return ok;
  }
};

}  // namespace gb::mg
