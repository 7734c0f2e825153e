// The copy kernel of common/background_load.hpp and its lifetime.
#include "common/background_load.hpp"

#include <chrono>
#include <string>
#include <thread>

#include "core/cuda_check.hpp"
#include "gpubarrier/watchdog.cuh"
#include "core/teardown.hpp"
#include "errors/errors.hpp"

namespace gb {
namespace {

// 256 MiB each way: far beyond L2 (50-60 MB), so every pass streams through DRAM.
constexpr std::size_t kFloats = std::size_t(64) << 20;

// Grid-stride copy passes until the host raises `stop` or `budget_ns` passed since the start.
// flags[0]: stop (host to GPU), flags[1]: started (GPU to host).
__global__ void background_copy(const float4* from, float4* to, std::size_t n,
                                volatile unsigned* flags, unsigned long long budget_ns) {
  const unsigned long long end = gpubarrier::Watchdog::global_ns() + budget_ns;
  if (blockIdx.x == 0 && threadIdx.x == 0) flags[1] = 1;
  const volatile unsigned* stop = flags;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  while (*stop == 0 && gpubarrier::Watchdog::global_ns() < end)
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
      to[i] = from[i];
}

}  // namespace

Axis background_axis() {
  return {"background",
          {0},
          {{Background::none, "none", "nothing else runs on the GPU"},
           {Background::copy, "copy",
            "a bandwidth-bound copy kernel (one block per SM) runs beside the barrier, both in the "
            "default memory synchronization domain"},
           {Background::copy_other_domain, "copy-other-domain",
            "the same copy, with the barrier's kernel launched in the remote memory "
            "synchronization domain, so that its fences need not wait for the copy's traffic"}}};
}

cudaLaunchMemSyncDomain barrier_domain(Background b) {
  return b == Background::copy_other_domain ? cudaLaunchMemSyncDomainRemote
                                            : cudaLaunchMemSyncDomainDefault;
}

Usability background_fits(Background b, long per_sm, int threads) {
  if (b == Background::none) return Usability::yes();
  int device = 0, max_threads = 0, max_blocks = 0;
  GB_CUDA_CHECK(cudaGetDevice(&device));
  GB_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&max_blocks, cudaDevAttrMaxBlocksPerMultiprocessor, device));
  if (per_sm * threads + BackgroundLoad::kThreads > max_threads || per_sm + 1 > max_blocks)
    return Usability::no("background: " + std::to_string(per_sm) + " blocks/SM x " +
                         std::to_string(threads) +
                         " threads leave no room for the copy's block of " +
                         std::to_string(BackgroundLoad::kThreads) + " threads on an SM of " +
                         std::to_string(max_threads));
  return Usability::yes();
}

BackgroundLoad::BackgroundLoad(Background b) {
  if (b == Background::none) return;
  try {
    GB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    unsigned* flags = nullptr;
    GB_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(unsigned), cudaHostAllocMapped));
    flags[0] = flags[1] = 0;
    stop_ = flags;
    GB_CUDA_CHECK(cudaMalloc(&from_, kFloats * sizeof(float)));
    GB_CUDA_CHECK(cudaMalloc(&to_, kFloats * sizeof(float)));
    GB_CUDA_CHECK(cudaMemsetAsync(from_, 0, kFloats * sizeof(float), stream_));
    int device = 0, sms = 0;
    GB_CUDA_CHECK(cudaGetDevice(&device));
    GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    unsigned* device_flags = nullptr;
    GB_CUDA_CHECK(cudaHostGetDevicePointer(&device_flags, flags, 0));
    background_copy<<<sms, kThreads, 0, stream_>>>(reinterpret_cast<const float4*>(from_),
                                                   reinterpret_cast<float4*>(to_), kFloats / 4,
                                                   device_flags, kStopAfterNs);
    GB_CUDA_CHECK(cudaGetLastError());
    // The barrier is timed only once the copy runs: the copy's first block says so.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (stop_[1] == 0) {
      if (std::chrono::steady_clock::now() > give_up)
        throw Error("the background copy did not start within 10 s");
      std::this_thread::yield();
    }
  } catch (...) {
    stop();
    throw;
  }
}

BackgroundLoad::~BackgroundLoad() {
  stop();
}

bool BackgroundLoad::running() const {
  return stream_ == nullptr || cudaStreamQuery(stream_) == cudaErrorNotReady;
}

void BackgroundLoad::stop() noexcept {
  if (stop_) *stop_ = 1;
  if (stream_) {
    const cudaError_t rc = cudaStreamSynchronize(stream_);
    if (rc != cudaSuccess) report_release_failure("the background copy", cudaGetErrorString(rc));
    cudaStreamDestroy(stream_);
  }
  if (from_) cudaFree(from_);
  if (to_) cudaFree(to_);
  if (stop_) cudaFreeHost(const_cast<unsigned*>(stop_));
  stream_ = nullptr;
  stop_ = nullptr;
  from_ = to_ = nullptr;
}

}  // namespace gb
