// The `cache` axis of the memory-bound figures (the reductions, model.gmem.stream's bandwidth):
// 0 = cold, the default: before every timed sample, outside the timed span, each GPU of the point
// has its L2 evicted; 1 = warm: nothing evicted, so an array that fits in L2 is read from it
// again (what rows without the axis measured). Eviction: a device buffer of four times the GPU's
// L2 (cudaDevAttrL2CacheSize, rounded up to whole MiB), written once when it is made, is read on
// the sample's stream, then the stream waited for. Reads only: the eviction leaves no dirty line
// of its own (a buffer written before every sample and read back left some of its dirty lines in
// L2 under a replacement policy that is not LRU, written back inside the next timed span, which
// slowed the smaller cold sizes), and the dirty lines the previous sample left (a copy's output)
// are written back while it runs, outside the timed span. Four times the L2, not two, so that no
// line of the point's data survives a replacement policy that protects lines read before.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/state.hpp"

namespace gb {

inline constexpr const char* kCacheAxis = "cache";
enum class Cache { cold = 0, warm = 1 };

// The axis with its default (cold).
inline Axis cache_axis() {
  return {
      kCacheAxis,
      {0},
      {{Cache::cold, "cold", "every GPU of the point has its L2 evicted before every timed sample"},
       {Cache::warm, "warm", "nothing evicted: data that fits in L2 is read from it again"}}};
}

// Whether the point evicts L2 before every sample (cache=cold, or no such axis).
bool cache_cold(const Point& point);

// The device memory a point of `point` needs on `device` for the eviction: 0 when warm.
std::size_t cache_memory(const Point& point, int device);

// One GPU's eviction buffer and what it does.
class L2Evictor {
 public:
  explicit L2Evictor(int device);
  ~L2Evictor();
  L2Evictor(const L2Evictor&) = delete;
  L2Evictor& operator=(const L2Evictor&) = delete;

  // Enqueues the read of the buffer on `stream` (of this evictor's GPU) and waits for it.
  void evict(cudaStream_t stream) const;
  std::size_t l2_bytes() const { return l2_; }
  std::size_t buffer_bytes() const { return bytes_; }

 private:
  int device_;
  std::size_t l2_, bytes_;
  void* buffer_ = nullptr;
  double* sink_ = nullptr;
};

// A point's cache policy over its GPUs (`devices`: this process's GPUs of the point, in the
// order the caller indexes them): cold evicts, warm does nothing.
class CachePolicy {
 public:
  CachePolicy(const Point& point, const std::vector<int>& devices);
  bool cold() const { return !evictors_.empty(); }
  // Evicts the L2 of devices[i] on `stream` and waits for it; nothing when warm.
  void evict(int i, cudaStream_t stream) const;
  // evict(0, stream) as a callable, for event_samples' `before`; empty when warm.
  std::function<void()> before(cudaStream_t stream) const;
  // For the rows of a point on `gpus` GPUs: "cold: L2 (50 MiB) evicted before every sample by
  // reading 200 MiB" ("L2 (50 MiB) of each GPU" on several), or "warm: L2 not evicted".
  std::string note(int gpus = 1) const;

 private:
  std::vector<std::unique_ptr<L2Evictor>> evictors_;
};

// The point's CachePolicy over `devices`, made once per point (a resource of the state).
inline const CachePolicy& cache_policy(State& state, const std::vector<int>& devices) {
  return state.resource<CachePolicy>(state.point(), devices);
}

}  // namespace gb
