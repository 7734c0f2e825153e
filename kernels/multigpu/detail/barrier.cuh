// Device-side barriers across the GPUs of a team, inside one persistent cooperative kernel per
// GPU. Each algorithm is an enum value (CUB style); the kernel is instantiated once per file.
//
// Shape of one barrier crossing (all but `central` and `push`): every block arrives on a counter in
// its own GPU; the block that completes the count speaks for the GPU and runs the algorithm's
// cross-GPU exchange (`cross`); it then releases its GPU's blocks through one local word. `push`
// skips that hop: every block waits on its GPU's own count and inbox, which the peers write
// directly. `all_count` has no leader at all: every block counts itself on every GPU. `central` is the
// textbook baseline: grid.sync, one leader per GPU counts on a word in member 0's memory,
// grid.sync.
#pragma once

#include <cooperative_groups.h>

#include "multigpu/detail/signals.cuh"

namespace gb::mg {

enum class Algo { central, hostflags, push, dissemination, hierarchical, all_count, slots };

// fault axis: test hooks that break the barrier on purpose. skip_wait signals but never waits
// (the check must report stale data); absent keeps the last member out of every barrier (the
// others must end on the watchdog, not hang).
enum class Fault { none = 0, skip_wait = 1, absent = 2 };

struct BarrierArgs {
  Mailbox* box[kMaxMembers];  // every member's mailbox, as this GPU addresses it
  HostFlags* host = nullptr;  // hostflags only
  int member = 0, members = 1;
  // hierarchical: this member's group (leader first) and every group's leader
  int group[kMaxMembers] = {}, group_size = 1;
  int leaders[kMaxMembers] = {}, leader_count = 1;
  Ordering ordering = Ordering::acquire_release;
  Fault fault = Fault::none;
  Word epoch0 = 0;  // barriers completed on these mailboxes by earlier launches
  long reps = 0;
  std::uint64_t watchdog_ns = 0;
  // Verification: each member's per-block stamps (null while timing) and how late the last block
  // of the last member writes its stamp, so that a barrier that does not wait is always caught.
  unsigned* stamps[kMaxMembers] = {};
  std::uint64_t late_ns = 0;
  // slots: every member's area of members x blocks words starts this many bytes into its mailbox
  // allocation (after the mailbox and the stamps); word m * blocks + b is block b of member m's.
  std::size_t slots_offset = 0;
};

__device__ __forceinline__ Word* slots_of(const BarrierArgs& a, int member) {
  return reinterpret_cast<Word*>(reinterpret_cast<char*>(a.box[member]) + a.slots_offset);
}

// The cross-GPU exchange, run by one thread per GPU once all of its blocks have arrived
// (`push` does its own in cross_gpus).
template <Algo A>
__device__ bool cross(const BarrierArgs& a, Mailbox* self, Word e, bool wait) {
  const Ordering o = a.ordering;
  const int m = a.member, n = a.members;
  auto await = [&](const Word* p) { return wait_at_least(p, e, o, self, a.watchdog_ns); };
  if constexpr (A == Algo::central) {
    Word* counter = &a.box[0]->counter;
    fence_if_relaxed(o);  // grid.sync orders the blocks at GPU scope only
    add_signal(counter, o);
    if (!wait) return true;
    const bool ok = wait_at_least(counter, e * n, o, self, a.watchdog_ns);
    fence_if_relaxed(o);
    return ok;
  } else if constexpr (A == Algo::hostflags) {
    store_signal(&a.host->arrive[m], e, o);
    if (!wait) return true;
    if (m != 0) return await(&a.host->release);
    for (int j = 1; j < n; ++j)
      if (!await(&a.host->arrive[j])) return false;
    fence_if_relaxed(o);
    store_signal(&a.host->release, e, o);
    return true;
  } else if constexpr (A == Algo::dissemination) {
    // Round k: signal member m + 2^k, wait for member m - 2^k; after ceil(log2 n) rounds every
    // member has heard, directly or transitively, from every other (any n, not only powers of 2).
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
      store_signal(&a.box[(m + d) % n]->round[k], e, o);
      if (!wait) continue;
      if (!await(&self->round[k])) return false;
      fence_if_relaxed(o);
    }
    return true;
  } else {
    const int leader = a.group[0];
    if (m != leader) {
      store_signal(&a.box[leader]->arrive[m], e, o);
      return !wait || await(&self->release);
    }
    if (wait) {
      for (int i = 1; i < a.group_size; ++i)
        if (!await(&self->arrive[a.group[i]])) return false;
      fence_if_relaxed(o);
    }
    for (int i = 0; i < a.leader_count; ++i)
      if (a.leaders[i] != m) store_signal(&a.box[a.leaders[i]]->leaders[m], e, o);
    if (wait) {
      for (int i = 0; i < a.leader_count; ++i)
        if (a.leaders[i] != m && !await(&self->leaders[a.leaders[i]])) return false;
      fence_if_relaxed(o);
    }
    for (int i = 1; i < a.group_size; ++i) store_signal(&a.box[a.group[i]]->release, e, o);
    return true;
  }
}

__device__ __forceinline__ bool aborted(Mailbox* self) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(self->abort)
             .load(cuda::memory_order_relaxed) != 0;
}

// One barrier crossing by every thread of every block; false once a watchdog expired.
template <Algo A>
__device__ bool cross_gpus(const BarrierArgs& a, Mailbox* self, Word e) {
  const bool wait = a.fault != Fault::skip_wait;
  const Ordering o = a.ordering;
  if constexpr (A == Algo::central) {
    if (!wait) {
      if (blockIdx.x == 0 && threadIdx.x == 0) cross<A>(a, self, e, false);
      return true;
    }
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) cross<A>(a, self, e, true);
    grid.sync();
    return !aborted(self);
  } else if constexpr (A == Algo::all_count) {
    // No leader and no second hop: every block adds its arrival to the counter of every GPU (its
    // own in local memory, the peers' over NVLink) and waits until its own GPU's counter holds
    // every block of every GPU. The cross-GPU latency overlaps the local arrivals.
    const Word complete = e * gridDim.x * static_cast<Word>(a.members);
    __shared__ bool ok;
    __syncthreads();
    if (threadIdx.x == 0) {
      fence_if_relaxed(o);  // this block's writes, before its arrivals leave
      for (int k = 0; k < a.members; ++k) {
        cuda::atomic_ref<Word, cuda::thread_scope_system> count(
            a.box[(a.member + k) % a.members]->counter);
        if (o == Ordering::acquire_release)
          count.fetch_add(1, cuda::memory_order_release);
        else
          count.fetch_add(1, cuda::memory_order_relaxed);
      }
      const bool good = !wait || wait_at_least(&self->counter, complete, o, self, a.watchdog_ns);
      fence_if_relaxed(o);
      ok = good;
    }
    __syncthreads();
    return ok;
  } else if constexpr (A == Algo::slots) {
    // No count on the critical path: every block writes its epoch into its own slot on every GPU
    // (its own included) as soon as it arrives, each write a system-scope release of what the
    // block wrote, and then the block's threads poll all members x blocks slots of their own GPU.
    // The NVLink latency of each block's signal overlaps the arrival of the others, where `push`
    // first completes the GPU's count and only then signals. The price is polling: every waiting
    // block reads members x blocks words (its threads share them).
    const int blocks = static_cast<int>(gridDim.x);
    const int slot = a.member * blocks + static_cast<int>(blockIdx.x);
    __syncthreads();  // the block's writes, ordered before the releases below
    for (int j = static_cast<int>(threadIdx.x); j < a.members; j += blockDim.x) {
      fence_if_relaxed(o);
      store_signal(&slots_of(a, (a.member + j) % a.members)[slot], e, o);
    }
    bool good = true;
    if (wait) {
      const Word* mine = slots_of(a, a.member);
      const int total = a.members * blocks;
      for (int i = static_cast<int>(threadIdx.x); good && i < total; i += blockDim.x)
        good = wait_at_least(&mine[i], e, o, self, a.watchdog_ns);
      fence_if_relaxed(o);
    }
    return __syncthreads_and(good) != 0;
  } else if constexpr (A == Algo::push) {
    // No release hop: every block waits for its own GPU's arrival count to complete (as a grid
    // barrier does) and for the peers' signals in its GPU's inbox; the block that completes the
    // count pushes the epoch into every peer's inbox. A crossing costs the arrival count, one
    // NVLink write and the poll that sees it. The count stays inside the GPU (device scope); only
    // the words that cross to peers are system-scope signals. The lanes of warp 0 share the
    // peers: lane k sends to and polls peers k, k+32, ..., so that with N GPUs the N-1 signals
    // (each with its own system-scope release) and polls are in flight together, not one after
    // the other.
    constexpr auto gpu = cuda::thread_scope_device;
    constexpr unsigned kWarp = 0xffffffffu;
    const bool alone = a.members == 1;
    const Word complete = e * gridDim.x;
    __shared__ bool ok;
    __syncthreads();
    if (threadIdx.x < 32) {
      const int lane = static_cast<int>(threadIdx.x);
      bool last = false;
      if (lane == 0) {
        cuda::atomic_ref<Word, gpu> arrived(self->blocks_arrived);
        fence_if_relaxed<gpu>(o);  // this block's writes, before its arrival
        const Word before = o == Ordering::acquire_release
                                ? arrived.fetch_add(1, cuda::memory_order_acq_rel)
                                : arrived.fetch_add(1, cuda::memory_order_relaxed);
        last = before + 1 == complete && !alone;
      }
      // The lanes that send publish, each with its own system-scope fence (relaxed) or release
      // store, everything lane 0 observed through the count (ordered to them by the warp sync).
      if (__shfl_sync(kWarp, last, 0)) {
        for (int k = lane; k < a.members - 1; k += 32) {
          const int j = (a.member + 1 + k) % a.members;
          fence_if_relaxed(o);
          store_signal(&a.box[j]->arrive[a.member], e, o);
        }
      }
      bool good = true;
      if (wait) {
        if (lane == 0)
          good = wait_at_least<gpu>(&self->blocks_arrived, complete, o, self, a.watchdog_ns);
        for (int k = lane; good && k < a.members - 1; k += 32)
          good = wait_at_least(&self->arrive[(a.member + 1 + k) % a.members], e, o, self,
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
  } else {
    __shared__ bool ok;
    __syncthreads();
    if (threadIdx.x == 0) {
      bool good = true;
      fence_if_relaxed(o);
      cuda::atomic_ref<Word, cuda::thread_scope_device> arrived(self->blocks_arrived);
      const Word before = o == Ordering::acquire_release
                              ? arrived.fetch_add(1, cuda::memory_order_acq_rel)
                              : arrived.fetch_add(1, cuda::memory_order_relaxed);
      if (before + 1 == e * gridDim.x) {  // this GPU's last block: the whole GPU has arrived
        fence_if_relaxed(o);
        good = cross<A>(a, self, e, wait);
        fence_if_relaxed(o);
        if (good) store_signal(&self->local_release, e, o);
      }
      if (good && wait) good = wait_at_least(&self->local_release, e, o, self, a.watchdog_ns);
      fence_if_relaxed(o);
      ok = good;
    }
    __syncthreads();
    return ok;
  }
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
__device__ inline void count_stale(const BarrierArgs& a, Mailbox* self, Word e) {
  unsigned bad = 0;
  const unsigned total = static_cast<unsigned>(a.members) * gridDim.x;
  for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
    const volatile unsigned* s = a.stamps[i / gridDim.x];
    bad += s[i % gridDim.x] < static_cast<unsigned>(e);
  }
  if (bad) atomicAdd(&self->stale, bad);
}

// The `reps` crossings of one launch, each between the block's stamp and its check while
// verifying. `cross(self, e)` crosses barrier e; false ends the launch (a watchdog expired).
// Shared with the kernels of library barriers (multigpu/nccl_lsa.cu), which bring their own cross.
template <class Cross>
__device__ void crossings(const BarrierArgs& a, Cross cross) {
  Mailbox* self = a.box[a.member];
  const bool check = a.stamps[0] != nullptr;
  for (long r = 0; r < a.reps; ++r) {
    const Word e = a.epoch0 + static_cast<Word>(r) + 1;
    if (check) write_stamp(a, e);
    if (!cross(self, e)) return;
    if (check) count_stale(a, self, e);
  }
}

template <Algo A>
__global__ void multigpu_barrier_kernel(const __grid_constant__ BarrierArgs a) {
  if (a.fault == Fault::absent && a.member == a.members - 1) return;
  crossings(a, [&a](Mailbox* self, Word e) { return cross_gpus<A>(a, self, e); });
}

}  // namespace gb::mg
