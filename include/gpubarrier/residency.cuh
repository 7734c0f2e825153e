// gpubarrier: whether every block of a grid can be resident at once, the precondition of any
// barrier across blocks (a grid that cannot be resident deadlocks at its first barrier), and a
// cooperative launch that checks it first; the same for a grid of thread-block clusters (sm_90),
// which a cooperative launch does not take. Host code; C++17, CUDA 12 or newer.
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

// ---- thread-block clusters (sm_90) ----------------------------------------------------------

namespace detail {
// A 1-D grid of `blocks` blocks in clusters of `cluster_size`; `attr` must outlive the config.
inline cudaLaunchConfig_t cluster_launch_config(unsigned blocks, unsigned cluster_size,
                                                unsigned threads, std::size_t smem,
                                                cudaStream_t stream, cudaLaunchAttribute* attr) {
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = cluster_size;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attr;
  config.numAttrs = 1;
  return config;
}
}  // namespace detail

// How many clusters of `cluster_size` blocks of `threads` threads (and `smem` bytes of dynamic
// shared memory) of `kernel` can be resident at once on the current device
// (cudaOccupancyMaxActiveClusters). Sizes above 8 are not portable: for them the kernel's
// cudaFuncAttributeNonPortableClusterSizeAllowed is set first. cudaErrorNotSupported on a GPU
// without clusters (before sm_90).
template <class Kernel>
cudaError_t max_resident_clusters(Kernel* kernel, unsigned cluster_size, unsigned threads,
                                  std::size_t smem, unsigned* clusters) {
  *clusters = 0;
  int device = 0, can = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&can, cudaDevAttrClusterLaunch, device);
  if (e != cudaSuccess) return e;
  if (!can) return cudaErrorNotSupported;
  const void* k = reinterpret_cast<const void*>(kernel);
  if (cluster_size > 8)
    e = cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t config =
      detail::cluster_launch_config(cluster_size, cluster_size, threads, smem, nullptr, &attr);
  int n = 0;
  if (e == cudaSuccess) e = cudaOccupancyMaxActiveClusters(&n, k, &config);
  *clusters = e == cudaSuccess ? static_cast<unsigned>(n) : 0;
  return e;
}

// Whether a grid of `blocks` blocks in clusters of `cluster_size` can be resident at once:
// cudaSuccess if so; cudaErrorInvalidValue if `blocks` is no multiple of `cluster_size`;
// cudaErrorCooperativeLaunchTooLarge if more clusters than max_resident_clusters. *max_clusters
// (if given): how many can.
template <class Kernel>
cudaError_t check_cluster_residency(Kernel* kernel, unsigned blocks, unsigned cluster_size,
                                    unsigned threads, std::size_t smem,
                                    unsigned* max_clusters = nullptr) {
  unsigned fit = 0;
  const cudaError_t e = max_resident_clusters(kernel, cluster_size, threads, smem, &fit);
  if (max_clusters) *max_clusters = fit;
  if (e != cudaSuccess) return e;
  if (cluster_size == 0 || blocks % cluster_size != 0) return cudaErrorInvalidValue;
  return blocks / cluster_size <= fit ? cudaSuccess : cudaErrorCooperativeLaunchTooLarge;
}

// A launch of `kernel` over `blocks` blocks in clusters of `cluster_size` (cudaLaunchKernelEx),
// with `args...` converted to its parameter types, after check_cluster_residency: its error,
// and no launch, when the grid cannot be resident.
template <class... Params, class... Args>
cudaError_t launch_clustered(void (*kernel)(Params...), unsigned blocks, unsigned cluster_size,
                             unsigned threads, std::size_t smem, cudaStream_t stream,
                             Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  const cudaError_t e = check_cluster_residency(kernel, blocks, cluster_size, threads, smem);
  if (e != cudaSuccess) return e;
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t config =
      detail::cluster_launch_config(blocks, cluster_size, threads, smem, stream, &attr);
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(std::forward<Args>(args))...);
}

}  // namespace gpubarrier
