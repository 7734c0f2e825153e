// gpubarrier: the push crossing of the cross-GPU device barrier (device_barrier.cuh states the
// contract and why it holds), over a set of memory operations. DeviceBarrier uses it with
// ReleaseAcquire; a caller may bring other operations for the same algorithm (relaxed signals
// ordered by fences, say: gpubarrier's benchmark times such variants), and then owns their
// ordering argument.
//
// Ops, an object with these device members (p: a word, t: a target epoch):
//   Epoch arrive(Epoch* count) const;            the block's arrival at its GPU's count (+1);
//                                                the value before; releases what the block's
//                                                leader observed (after bar.sync)
//   void send(Epoch* inbox, Epoch e) const;      one signal into a peer's inbox; releases what
//                                                the sending thread observed
//   bool wait_count(const Epoch* p, Epoch t) const;   spin until *p >= t, GPU scope; false: the
//   bool wait_peer(const Epoch* p, Epoch t) const;    watchdog gave up; system scope for peers
//   void after_count() const;  void after_peers() const;
//                                                what a thread that waited does after its waits
//                                                (count only, alone; count and peers otherwise)
#pragma once

#include <cuda/atomic>

#include "gpubarrier/watchdog.cuh"

namespace gpubarrier {

using Epoch = unsigned long long;

// At most this many GPUs meet at one device barrier (one node's GPUs).
inline constexpr int kMaxGpus = 64;

// The words of one GPU, in that GPU's memory; peers write its inbox. Zero before first use.
struct DeviceBarrierWords {
  alignas(128) Epoch arrive[kMaxGpus];  // the inbox: the latest epoch each member signalled
  alignas(128) Epoch arrived;           // blocks of this GPU that reached a barrier, in all
};

// Which steps a crossing takes: all of them for a barrier. Only timing experiments leave some
// out (then it is no barrier across GPUs). speaks: whether this block signals the peers when the
// gather is left out.
struct PushSteps {
  bool gather = true, send = true, poll_peers = true, wait = true, speaks = false;
};

// Release stores, acquire loads and an acq_rel count: the operations of DeviceBarrier.
template <class W = Watchdog>
struct ReleaseAcquire {
  W watchdog;

  __device__ Epoch arrive(Epoch* count) const {
    return cuda::atomic_ref<Epoch, cuda::thread_scope_device>(*count).fetch_add(
        1, cuda::memory_order_acq_rel);
  }
  __device__ void send(Epoch* inbox, Epoch e) const {
    cuda::atomic_ref<Epoch, cuda::thread_scope_system>(*inbox).store(e, cuda::memory_order_release);
  }
  __device__ bool wait_count(const Epoch* p, Epoch t) const {
    cuda::atomic_ref<Epoch, cuda::thread_scope_device> a(*const_cast<Epoch*>(p));
    return detail::spin_until(watchdog, [&] { return a.load(cuda::memory_order_acquire) >= t; });
  }
  __device__ bool wait_peer(const Epoch* p, Epoch t) const {
    cuda::atomic_ref<Epoch, cuda::thread_scope_system> a(*const_cast<Epoch*>(p));
    return detail::spin_until(watchdog, [&] { return a.load(cuda::memory_order_acquire) >= t; });
  }
  __device__ void after_count() const {}
  __device__ void after_peers() const {}
};

// Crossing `e` (1, 2, ...: the barriers this GPU completed, + 1) of member `member` of
// `members`, called by every thread of every block; the same result in every thread of the
// block, false once the watchdog gave up. words_of(j): member j's words as this GPU addresses
// them; self = words_of(member).
//
// Every block waits for its own GPU's arrival count to complete (as a grid barrier does) and for
// the peers' signals in its GPU's inbox; the block that completes the count pushes the epoch
// into every peer's inbox, in the peer's own memory. The lanes of warp 0 share the peers: lane k
// sends to and polls peers k, k+32, ..., so that the N-1 signals and polls are in flight
// together.
template <class Ops, class WordsOf>
__device__ __forceinline__ bool push_cross(const Ops& ops, DeviceBarrierWords* self,
                                           WordsOf words_of, int member, int members, Epoch e,
                                           const PushSteps& steps) {
  constexpr unsigned kWarp = 0xffffffffu;
  const bool alone = members == 1;
  const Epoch complete = e * (Epoch(gridDim.x) * gridDim.y * gridDim.z);
  __shared__ bool ok;
  __syncthreads();  // the whole block's writes precede its leader's arrival
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (tid < 32) {
    const int lane = static_cast<int>(tid);
    bool last = false;
    if (lane == 0 && steps.gather)
      last = ops.arrive(&self->arrived) + 1 == complete && !alone;
    else if (lane == 0)
      last = steps.speaks && !alone;
    // The lanes that send publish, each with its own release, everything lane 0 observed
    // through the count. The shuffle only moves the value; __syncwarp (bar.warp.sync) is what
    // orders lane 0's acquire before every sending lane's release, so that lanes 1..31 publish
    // what lane 0 acquired (3 or more GPUs).
    const bool send = __shfl_sync(kWarp, last, 0);
    __syncwarp(kWarp);
    if (send && steps.send)
      for (int k = lane; k < members - 1; k += 32)
        ops.send(&words_of((member + 1 + k) % members)->arrive[member], e);
    bool good = true;
    if (steps.wait) {
      if (lane == 0 && steps.gather) good = ops.wait_count(&self->arrived, complete);
      for (int k = lane; good && steps.poll_peers && k < members - 1; k += 32)
        good = ops.wait_peer(&self->arrive[(member + 1 + k) % members], e);
    }
    if (alone)
      ops.after_count();
    else if (lane == 0 || lane < members - 1)  // the lanes that polled
      ops.after_peers();
    good = __all_sync(kWarp, good);
    if (lane == 0) ok = good;
  }
  __syncthreads();  // carries warp 0's acquires to the block's threads
  return ok;
}

}  // namespace gpubarrier
