#include "common/l2_evict.hpp"

#include <cstdint>

#include "common/sm_throughput.cuh"
#include "core/cuda_check.hpp"
#include "core/teardown.hpp"
#include "errors/errors.hpp"

namespace gb {
namespace {

// Reads every 16 bytes of the buffer: its clean lines replace whatever L2 held. The test on the
// sum is never true (the buffer is zero): it keeps the loads.
__global__ void read_back_kernel(const ulonglong2* data, std::uint64_t n, double* sink) {
  unsigned long long acc = 0;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const ulonglong2 v = data[i];
    acc ^= v.x ^ v.y;
  }
  if (acc == 0x5eedULL) *sink = static_cast<double>(acc);
}

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::size_t l2_of(int device) {
  int bytes = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(bytes);
}

// Four times the L2, rounded up to whole MiB (at least 1 MiB).
std::size_t buffer_of(std::size_t l2) {
  const std::size_t four = 4 * l2;
  return four == 0 ? kMiB : (four + kMiB - 1) / kMiB * kMiB;
}

std::string mib(std::size_t bytes) {
  return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB";
}

}  // namespace

bool cache_cold(const Point& point) {
  return point.choice(kCacheAxis, Cache::cold) == Cache::cold;
}

std::size_t cache_memory(const Point& point, int device) {
  return cache_cold(point) ? buffer_of(l2_of(device)) : 0;
}

L2Evictor::L2Evictor(int device) : device_(device), l2_(l2_of(device)), bytes_(buffer_of(l2_)) {
  GB_CUDA_CHECK(cudaSetDevice(device_));
  GB_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  cudaError_t rc = cudaMalloc(reinterpret_cast<void**>(&sink_), sizeof(double));
  // Written once: every eviction after this only reads it.
  if (rc == cudaSuccess) rc = cudaMemset(buffer_, 0, bytes_);
  if (rc == cudaSuccess) rc = cudaDeviceSynchronize();
  if (rc != cudaSuccess) {
    cudaFree(buffer_);  // the destructor does not run for a constructor that throws
    cudaFree(sink_);
    GB_CUDA_CHECK(rc);
  }
}

L2Evictor::~L2Evictor() {
  for (void* p : {buffer_, static_cast<void*>(sink_)})
    if (const cudaError_t rc = cudaFree(p); rc != cudaSuccess)
      report_release_failure("the L2 eviction buffer", cudaGetErrorString(rc));
}

void L2Evictor::evict(cudaStream_t stream) const {
  GB_CUDA_CHECK(cudaSetDevice(device_));
  read_back_kernel<<<multiprocessor_count(device_) * 4, 256, 0, stream>>>(
      static_cast<const ulonglong2*>(buffer_), bytes_ / sizeof(ulonglong2), sink_);
  GB_CUDA_CHECK(cudaGetLastError());
  GB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

CachePolicy::CachePolicy(const Point& point, const std::vector<int>& devices) {
  if (!cache_cold(point)) return;
  for (int d : devices) evictors_.push_back(std::make_unique<L2Evictor>(d));
}

void CachePolicy::evict(int i, cudaStream_t stream) const {
  if (cold()) evictors_.at(static_cast<std::size_t>(i))->evict(stream);
}

std::function<void()> CachePolicy::before(cudaStream_t stream) const {
  if (!cold()) return {};
  return [this, stream] { evict(0, stream); };
}

std::string CachePolicy::note(int gpus) const {
  if (!cold()) return "warm: L2 not evicted";
  const L2Evictor& first = *evictors_.front();
  bool same = true;
  for (const auto& e : evictors_) same = same && e->l2_bytes() == first.l2_bytes();
  if (!same)
    return "cold: each GPU's L2 evicted before every sample by reading four times its size";
  return "cold: L2 (" + mib(first.l2_bytes()) + ")" + (gpus > 1 ? " of each GPU" : "") +
         " evicted before every sample by reading " + mib(first.buffer_bytes());
}

}  // namespace gb
