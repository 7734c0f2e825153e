// gpubarrier: whether every block of a grid can be resident at once, the precondition of any
// barrier across blocks (a grid that cannot be resident deadlocks at its first barrier), and a
// cooperative launch that checks it first. Host code; C++17, CUDA 12 or newer.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace gpubarrier {

// How many blocks of `threads` threads (and `smem` bytes of dynamic shared memory) of `kernel`
// can be resident at once on the current device, by the occupancy API.
template <class Kernel>
cudaError_t max_resident_blocks(Kernel* kernel, unsigned threads, std::size_t smem,
                                unsigned* blocks) {
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, reinterpret_cast<const void*>(kernel), static_cast<int>(threads), smem);
  *blocks = e == cudaSuccess ? static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms) : 0;
  return e;
}

// Whether `blocks` blocks of `kernel` can all be resident at once on the current device
// (max_resident_blocks): cudaSuccess if so, cudaErrorCooperativeLaunchTooLarge if not.
// *max_blocks (if given): how many can.
template <class Kernel>
cudaError_t check_residency(Kernel* kernel, unsigned blocks, unsigned threads, std::size_t smem,
                            unsigned* max_blocks = nullptr) {
  unsigned fit = 0;
  const cudaError_t e = max_resident_blocks(kernel, threads, smem, &fit);
  if (max_blocks) *max_blocks = fit;
  if (e != cudaSuccess) return e;
  return blocks <= fit ? cudaSuccess : cudaErrorCooperativeLaunchTooLarge;
}

namespace detail {
template <class... Params>
cudaError_t launch_cooperative_values(void (*kernel)(Params...), dim3 grid, dim3 block,
                                      std::size_t smem, cudaStream_t stream, Params... values) {
  void* args[] = {const_cast<void*>(static_cast<const void*>(&values))..., nullptr};
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args, smem,
                                     stream);
}
}  // namespace detail

// A cooperative launch of `kernel` with `args...` (converted to its parameter types), after
// check_residency: cudaErrorCooperativeLaunchTooLarge, and no launch, when the grid cannot be
// resident.
template <class... Params, class... Args>
cudaError_t launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                               cudaStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  const cudaError_t e =
      check_residency(kernel, grid.x * grid.y * grid.z, block.x * block.y * block.z, smem);
  if (e != cudaSuccess) return e;
  return detail::launch_cooperative_values(kernel, grid, block, smem, stream,
                                           static_cast<Params>(std::forward<Args>(args))...);
}

}  // namespace gpubarrier
