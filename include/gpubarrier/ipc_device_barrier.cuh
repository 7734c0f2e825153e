// gpubarrier: the device barrier (device_barrier.cuh) for one rank (process) per GPU. Each rank
// allocates its words on its current device and exports them as a CUDA IPC handle; the ranks
// exchange handles through a callback the caller supplies (an all-gather over MPI, sockets, a
// launcher's key-value store; mpi_device_barrier.cuh gives MPI's), and each opens the others'.
//
//   gpubarrier::DeviceBarrierState state;
//   gpubarrier::make_ipc_device_barrier(rank, ranks, my_allgather, &state, 2'000'000'000);
//   kernel<<<...>>>(state);
//   ... every rank's kernels done, then a host barrier ...
//   gpubarrier::free_ipc_device_barrier(&state);
//
// The ranks' GPUs must be distinct and reach each other by peer access (CUDA IPC needs the GPUs of
// one node). make zeroes the words and synchronizes the device before the exchange, so that no
// peer's signal can reach words not yet zeroed.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>

#include "gpubarrier/device_barrier.cuh"

namespace gpubarrier {

// Every rank calls it with its `bytes` bytes at `mine`; on return `all` holds every rank's bytes in
// rank order (members x bytes). false: the exchange failed.
using AllGather = std::function<bool(const void* mine, void* all, std::size_t bytes)>;

// Closes the peers' words and frees this rank's; every member's kernels must have ended (meet in
// a host barrier first), since a peer may still write into this rank's inbox until then.
inline cudaError_t free_ipc_device_barrier(DeviceBarrierState* state) {
  cudaError_t e = cudaSuccess;
  for (int j = 0; j < state->members; ++j) {
    if (!state->words[j]) continue;
    const cudaError_t r =
        j == state->member ? cudaFree(state->words[j]) : cudaIpcCloseMemHandle(state->words[j]);
    if (e == cudaSuccess) e = r;
  }
  *state = DeviceBarrierState{};
  return e;
}

// member: this rank's place among `members` ranks (0-based); a collective call: every member
// calls it at once. cudaErrorInvalidValue for a member outside 0..members-1 or members outside
// 1..kMaxGpus; cudaErrorUnknown when the exchange failed.
inline cudaError_t make_ipc_device_barrier(int member, int members, const AllGather& allgather,
                                           DeviceBarrierState* state,
                                           std::uint64_t watchdog_ns = 0) {
  *state = DeviceBarrierState{};
  if (members < 1 || members > kMaxGpus || member < 0 || member >= members)
    return cudaErrorInvalidValue;
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, kDeviceBarrierBytes);
  if (e == cudaSuccess) e = cudaMemset(p, 0, kDeviceBarrierBytes);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  cudaIpcMemHandle_t mine{};
  if (e == cudaSuccess) e = cudaIpcGetMemHandle(&mine, p);
  // The exchange runs even after a failure here, so that no member waits in it forever; a failed
  // member sends a handle of zeros, which the others refuse to open.
  cudaIpcMemHandle_t all[kMaxGpus];
  const bool exchanged = allgather(&mine, all, sizeof(cudaIpcMemHandle_t));
  if (e == cudaSuccess && !exchanged) e = cudaErrorUnknown;
  auto* own = static_cast<DeviceBarrierWords*>(p);
  state->words[member] = own;
  for (int j = 0; j < members && e == cudaSuccess; ++j) {
    if (j == member) continue;
    void* peer = nullptr;
    e = cudaIpcOpenMemHandle(&peer, all[j], cudaIpcMemLazyEnablePeerAccess);
    state->words[j] = static_cast<DeviceBarrierWords*>(peer);
  }
  state->member = member;
  state->members = members;
  state->watchdog = Watchdog{watchdog_ns, own ? detail::flag_of(own) : nullptr};
  if (e != cudaSuccess) free_ipc_device_barrier(state);
  return e;
}

}  // namespace gpubarrier
