// gpubarrier: a device-side barrier across GPUs. Every block of one kernel on each of N GPUs
// calls sync(); it returns when every block on every GPU has arrived. Set up with
// peer_device_barrier.cuh (one process drives N GPUs) or ipc_device_barrier.cuh (one rank per
// GPU; mpi_device_barrier.cuh for MPI).
//
//   __global__ void step(gpubarrier::DeviceBarrierState s, ...) {
//     gpubarrier::DeviceBarrier bar(s);
//     for (...) { work(); if (!bar.sync()) return; }    // false: the watchdog gave up
//   }
//
// The algorithm (push): every block waits for its own GPU's arrival count to complete, as a grid
// barrier does, and for the peers' signals in its GPU's inbox; the block that completes the count
// writes the epoch into every peer's inbox, in the peer's own memory. A crossing costs the count,
// one NVLink write and the poll that sees it. Words only grow: nothing is reset between
// barriers.
//
// Memory-ordering contract. When sync() returns true in a thread T on GPU g, every write that
// any thread of the kernels on any member GPU made before its block called the same barrier's
// sync() is visible to T and to every later read of T, at system scope (thread_scope_system):
// T may read those writes in the writing GPU's memory through peer access, or in its own GPU's
// memory written by a peer. The barrier does not order work outside those kernels (other streams,
// copies, the host), and does not make a peer's writes to memory reached through a path other than
// the GPU's loads and stores (a DMA engine, say) visible.
//
// Why it holds under the PTX memory model: bar.sync orders each block's writes before its
// leader's add to its GPU's count, an acq_rel RMW at GPU scope; the leader whose add completes
// the count acquires every block's release (they form a release sequence of the count) and
// __syncwarp orders that before each sending lane's release store at system scope into a peer's
// inbox; a reader's acquire load at system scope that sees the epoch synchronizes with it
// (release/acquire are morally strong: both are system-scope atomics), so by causality order
// every block of the sender's GPU happens before it; its own count's acquire covers its own GPU;
// bar.sync after the waits carries both to every thread of the block.
//
// What the caller must do and must not do:
// - every block of every member's kernel calls sync() the same number of times, with all its
//   threads; every member's grid is resident at once (launch_cooperative, check_residency:
//   residency.cuh), and all members' kernels run at the same time (their launches may not wait
//   for one another: one stream per GPU); the members' grids may differ in size;
// - one state per GPU serves one kernel at a time (never two streams at once), and launches on
//   a state keep one grid size; after a timeout, or to change the grid size, reset every member's
//   words (reset_device_barrier) while no member's kernel runs, then meet (a host barrier) before
//   the next launch;
// - the words are only read and written by the barrier.
//
// Requirements: C++17, CUDA 12 or newer, sm_70 or newer; peer access (NVLink or PCIe) between
// every pair of members.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpubarrier/push_crossing.cuh"
#include "gpubarrier/residency.cuh"
#include "gpubarrier/watchdog.cuh"

namespace gpubarrier {

// What each member's kernel gets by value (about 540 bytes: pass it as a kernel parameter).
struct DeviceBarrierState {
  DeviceBarrierWords* words[kMaxGpus] = {};  // every member's words as this GPU addresses them
  int member = 0, members = 1;
  Watchdog watchdog;  // this member's flag; budget 0: none
};

// The barrier as one block sees it: made by every thread of every block, once per kernel, before
// the first sync().
class DeviceBarrier {
 public:
  // Every launch before this one completed all its barriers (or the words were reset), so this
  // GPU's count is a multiple of the grid when the launch starts; a leader that reads it after
  // others arrived at the first barrier sees fewer than `blocks` more.
  __device__ explicit DeviceBarrier(const DeviceBarrierState& s) : s_(s), self_(s.words[s.member]) {
    const Epoch blocks = Epoch(gridDim.x) * gridDim.y * gridDim.z;
    epoch_ = cuda::atomic_ref<Epoch, cuda::thread_scope_device>(self_->arrived)
                 .load(cuda::memory_order_relaxed) /
             blocks;
    __syncthreads();  // every thread read the same count before any leader arrives
  }

  // Every thread of the block; true when every block of every member has arrived. false in every
  // thread of the block when the watchdog gave up (then leave the kernel).
  __device__ bool sync() {
    const auto words_of = [this](int j) { return s_.words[j]; };
    return push_cross(ReleaseAcquire<Watchdog>{s_.watchdog}, self_, words_of, s_.member, s_.members,
                      ++epoch_, PushSteps{});
  }

 private:
  const DeviceBarrierState& s_;
  DeviceBarrierWords* self_;
  Epoch epoch_;
};

// ---- host ----------------------------------------------------------------------------------

// One member's allocation: its words, then its watchdog's flag.
inline constexpr std::size_t kDeviceBarrierBytes = sizeof(DeviceBarrierWords) + 128;

namespace detail {
inline unsigned* flag_of(DeviceBarrierWords* words) {
  return reinterpret_cast<unsigned*>(reinterpret_cast<char*>(words) + sizeof(DeviceBarrierWords));
}
}  // namespace detail

// Zeroes one member's words and flag on `stream` (of that member's GPU). No member's kernel may
// run meanwhile, and every member resets before any member launches again.
inline cudaError_t reset_device_barrier(const DeviceBarrierState& state, cudaStream_t stream) {
  return cudaMemsetAsync(state.words[state.member], 0, kDeviceBarrierBytes, stream);
}

// Whether this member's kernels on this state gave up (its watchdog expired). Synchronizes
// `stream`.
inline cudaError_t device_barrier_timed_out(const DeviceBarrierState& state, cudaStream_t stream,
                                            bool* timed_out) {
  unsigned flag = 0;
  cudaError_t e = cudaMemcpyAsync(&flag, detail::flag_of(state.words[state.member]), sizeof flag,
                                  cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  *timed_out = flag != 0;
  return e;
}

}  // namespace gpubarrier
