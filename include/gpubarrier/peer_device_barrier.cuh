// gpubarrier: the device barrier (device_barrier.cuh) for one process that drives N GPUs. Each
// member's words live in its own GPU's memory; peer access gives every GPU the others' addresses.
//
//   int devices[] = {0, 1};
//   gpubarrier::DeviceBarrierState states[2];
//   gpubarrier::make_peer_device_barrier(devices, 2, states, /*watchdog_ns=*/2'000'000'000);
//   for (int g = 0; g < 2; ++g) { cudaSetDevice(devices[g]); kernel<<<...,
//   streams[g]>>>(states[g]); }
//   ...
//   gpubarrier::free_peer_device_barrier(devices, 2, states);
//
// make_peer_device_barrier enables peer access between every pair (an access already enabled is
// kept), so the calling process must not disable it while the barrier is in use. It synchronizes
// each device once. The current device is restored on return.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gpubarrier/device_barrier.cuh"

namespace gpubarrier {

// states[i]: member i's state, for a kernel on devices[i]. cudaErrorPeerAccessUnsupported when a
// pair cannot reach each other; cudaErrorInvalidValue for count outside 1..kMaxGpus.
inline cudaError_t make_peer_device_barrier(const int* devices, int count,
                                            DeviceBarrierState* states,
                                            std::uint64_t watchdog_ns = 0) {
  if (count < 1 || count > kMaxGpus) return cudaErrorInvalidValue;
  int current = 0;
  cudaError_t e = cudaGetDevice(&current);
  if (e != cudaSuccess) return e;
  DeviceBarrierWords* words[kMaxGpus] = {};
  for (int i = 0; i < count && e == cudaSuccess; ++i) {
    e = cudaSetDevice(devices[i]);
    for (int j = 0; j < count && e == cudaSuccess; ++j) {
      if (devices[j] == devices[i]) continue;
      int can = 0;
      e = cudaDeviceCanAccessPeer(&can, devices[i], devices[j]);
      if (e == cudaSuccess && !can) e = cudaErrorPeerAccessUnsupported;
      if (e == cudaSuccess) {
        e = cudaDeviceEnablePeerAccess(devices[j], 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();  // clears the sticky-until-read error
          e = cudaSuccess;
        }
      }
    }
    void* p = nullptr;
    if (e == cudaSuccess) e = cudaMalloc(&p, kDeviceBarrierBytes);
    words[i] = static_cast<DeviceBarrierWords*>(p);
    if (e == cudaSuccess) e = cudaMemset(p, 0, kDeviceBarrierBytes);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
  }
  for (int i = 0; i < count; ++i) {
    states[i] = DeviceBarrierState{};
    for (int j = 0; j < count; ++j) states[i].words[j] = words[j];
    states[i].member = i;
    states[i].members = count;
    states[i].watchdog = Watchdog{watchdog_ns, words[i] ? detail::flag_of(words[i]) : nullptr};
  }
  if (e != cudaSuccess) {
    for (int i = 0; i < count; ++i)
      if (words[i]) cudaSetDevice(devices[i]), cudaFree(words[i]);
  }
  const cudaError_t restored = cudaSetDevice(current);
  return e != cudaSuccess ? e : restored;
}

// Frees every member's words; no member's kernel may still run.
inline cudaError_t free_peer_device_barrier(const int* devices, int count,
                                            DeviceBarrierState* states) {
  int current = 0;
  cudaError_t e = cudaGetDevice(&current);
  for (int i = 0; i < count; ++i) {
    DeviceBarrierWords* own = states[i].words[states[i].member];
    if (own && e == cudaSuccess) e = cudaSetDevice(devices[i]);
    if (own && e == cudaSuccess) e = cudaFree(own);
  }
  for (int i = 0; i < count; ++i) states[i] = DeviceBarrierState{};
  const cudaError_t restored = cudaSetDevice(current);
  return e != cudaSuccess ? e : restored;
}

}  // namespace gpubarrier
