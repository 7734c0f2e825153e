// The persistent cooperative kernel of every device-side multi-GPU barrier, generic over the
// algorithm. An algorithm is a type in its own file (kernels/multigpu/push.cu, ...) that holds
//   struct Words;  its signal words, one set per GPU in that GPU's memory (peers write them)
//   struct Args;   its own kernel arguments (empty for most), made on the host by
//                  static Args args(const AlgoSetup&, int local)  (detail/barrier_session.cuh)
//   __device__ static bool cross(const BarrierArgs&, const Args&, Word epoch);
// and optionally words_bytes(blocks, members) when its words grow with the grid, host_bytes
// (host-mapped memory it needs), note(const AlgoSetup&) for its rows, and peer_atomics = true
// when it needs native atomics on peer memory (skipped where cudaDevP2PAttrNativeAtomicSupported
// is 0). `cross` is called by
// every thread of every block once per barrier crossing and returns false once a watchdog
// expired; the kernel around it stamps and checks while verifying.
#pragma once

#include <cstddef>
#include <cstdint>

#include "multigpu/detail/signals.cuh"

namespace gb::mg {

// fault axis: test hooks that break the barrier on purpose. skip_wait signals but never waits
// (the check must report stale data); absent keeps the last member out of every barrier (the
// others must end on the watchdog, not hang).
enum class Fault { none = 0, skip_wait = 1, absent = 2 };

// What every algorithm's kernel gets, whatever the algorithm.
struct BarrierArgs {
  Control* self = nullptr;             // this GPU's control words
  char* words[kMaxMembers] = {};       // every member's algorithm words, as this GPU addresses them
  char* own = nullptr;                 // words[member]: a fixed kernel-parameter offset, so that
                                       // the hot path never indexes the parameters by member
  unsigned* stamps[kMaxMembers] = {};  // each member's per-block stamps; null while timing
  int member = 0, members = 1;
  Ordering ordering = Ordering::acquire_release;
  Fault fault = Fault::none;
  Word epoch0 = 0;  // barriers completed on these words by earlier launches
  long reps = 0;
  std::uint64_t watchdog_ns = 0;
  // How late the last block of the last member writes its stamp while verifying, so that a
  // barrier that does not wait is always caught.
  std::uint64_t late_ns = 0;

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

__device__ __forceinline__ bool aborted(const Control* self) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(const_cast<Control*>(self)->abort)
             .load(cuda::memory_order_relaxed) != 0;
}

__device__ inline void write_stamp(const BarrierArgs& a, Word e) {
  if (threadIdx.x != 0) return;
  if (a.member == a.members - 1 && blockIdx.x == gridDim.x - 1) {
    const std::uint64_t until = dev::global_ns() + a.late_ns;
    while (dev::global_ns() < until) __nanosleep(1000);
  }
  *static_cast<volatile unsigned*>(a.stamps[a.member] + blockIdx.x) = static_cast<unsigned>(e);
}

// After barrier e every block of every member must see every block's stamp e (or later).
__device__ inline void count_stale(const BarrierArgs& a, Word e) {
  unsigned bad = 0;
  const unsigned total = static_cast<unsigned>(a.members) * gridDim.x;
  for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
    const volatile unsigned* s = a.stamps[i / gridDim.x];
    bad += s[i % gridDim.x] < static_cast<unsigned>(e);
  }
  if (bad) atomicAdd(&a.self->stale, bad);
}

// The `reps` crossings of one launch, each between the block's stamp and its check while
// verifying. `cross(e)` crosses barrier e; false ends the launch (a watchdog expired). Shared
// with the kernels of library barriers (multigpu/nccl_lsa.cu), which bring their own cross.
template <class Cross>
__device__ void crossings(const BarrierArgs& a, Cross cross) {
  const bool check = a.stamps[0] != nullptr;
  for (long r = 0; r < a.reps; ++r) {
    const Word e = a.epoch0 + static_cast<Word>(r) + 1;
    if (check) write_stamp(a, e);
    if (!cross(e)) return;
    if (check) count_stale(a, e);
  }
}

template <class Algo>
__global__ void barrier_kernel(const __grid_constant__ BarrierArgs a,
                               const __grid_constant__ typename Algo::Args x) {
  if (a.fault == Fault::absent && a.member == a.members - 1) return;
  crossings(a, [&](Word e) { return Algo::cross(a, x, e); });
}

}  // namespace gb::mg
