// What every device-side multi-GPU barrier's kernel gets, whatever the algorithm, and the words
// it shares on each GPU: the memory layout the runtime sets up (runtime/barrier_memory.cuh) and
// the device-barrier frame crosses on (kernels/multigpu/frame/crossing.cuh, signals.cuh). Types
// only: no algorithm.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/faults.hpp"

namespace gb::mg {

inline constexpr int kMaxMembers = 64;  // topo::kMaxGpus: one node never has more GPUs

using Word = unsigned long long;

// One per GPU, in that GPU's own memory: what every algorithm's kernel on it shares. Only this
// GPU writes it; the host reads the counters after a launch.
struct alignas(128) Control {
  unsigned abort;          // set by the first spin that timed out: every block leaves the kernel
  unsigned timeouts;       // spins that timed out
  unsigned stale;          // verification reads that saw an old stamp
  unsigned payload_stale;  // verification payload words read before the barrier published them
};

// ordering axis: 0 = every signal a release store / acquire load at system scope;
// 1 = relaxed signals, ordered by sequentially consistent fences (fence.sc: MEMBAR.SC) at the
// points where a block arrives and leaves; 2 = the same relaxed signals and fence points with
// acquire-release fences (fence.acq_rel: MEMBAR.ALL), which message passing needs and no more
// (to tell whether the fence's strength is what ordering 1 pays for).
// unordered: relaxed signals and no fences, the fault=3 test hook
// (kernels/multigpu/frame/crossing.cuh); every algorithm treats what is neither acquire_release
// nor fenced(o) as no ordering at all.
enum class Ordering { acquire_release = 0, relaxed_fenced = 1, relaxed_acq_rel = 2, unordered = 3 };

// The orderings whose signals are relaxed and ordered by fences (1 and 2).
__host__ __device__ constexpr bool fenced(Ordering o) {
  return o == Ordering::relaxed_fenced || o == Ordering::relaxed_acq_rel;
}

// The fault axis: test hooks that break the barrier on purpose (core/faults.hpp says what each
// does; docs/reliability.md, "Test hooks").
using Fault = faults::DeviceFault;

// What every algorithm's kernel gets, whatever the algorithm.
struct BarrierArgs {
  Control* self = nullptr;             // this GPU's control words
  char* words[kMaxMembers] = {};       // every member's algorithm words, as this GPU addresses them
  char* own = nullptr;                 // words[member]: a fixed kernel-parameter offset, so that
                                       // the hot path never indexes the parameters by member
  unsigned* stamps[kMaxMembers] = {};  // each member's per-block stamps; null while timing
  unsigned* payload[kMaxMembers] = {};  // each member's per-thread payload words (check only)
  int member = 0, members = 1;
  // This GPU's place among every GPU of the run: the late participant of the check goes round
  // these, and the absent fault keeps the last of them out. Equal to member/members, except
  // where the words span one node's GPUs only (multinode.hierarchical), so that the late block
  // and the absent GPU may be on any node.
  int rank = 0, ranks = 1;
  Ordering ordering = Ordering::acquire_release;
  Fault fault = Fault::none;
  Word epoch0 = 0;  // barriers completed on these words by earlier launches
  long reps = 0;
  std::uint64_t watchdog_ns = 0;
  // While verifying, one block of one member arrives this late at each barrier, so that a barrier
  // that does not wait for it is caught: the member goes round with the epoch, the block is drawn
  // from `seed` (the same every run: results/SCHEMA.md).
  std::uint64_t late_ns = 0;
  unsigned seed = 0;

  __device__ bool waits() const { return fault != Fault::skip_wait; }
  template <class W>
  __device__ W* words_of(int m) const {
    return reinterpret_cast<W*>(words[m]);
  }
  template <class W>
  __device__ W* own_words() const {
    return reinterpret_cast<W*>(own);
  }
};

// BarrierArgs with its ordering fixed when the kernel is compiled: what the frame's persistent
// kernel hands an algorithm's cross (kernels/multigpu/frame/crossing.cuh), one kernel per ordering.
// `a.ordering` is then a constant, and every branch an algorithm takes on it (which fence, which
// load, which atomic) is resolved by the compiler instead of at every crossing: on one H200 push's
// crossing on one GPU lost a quarter of its time to those branches. The same bytes as BarrierArgs,
// so the host launches it with a BarrierArgs.
template <Ordering O>
struct OrderedArgs : BarrierArgs {
  static constexpr Ordering ordering = O;
};
static_assert(sizeof(OrderedArgs<Ordering::acquire_release>) == sizeof(BarrierArgs));

}  // namespace gb::mg
