// The leader shape that several algorithms share: every block of a GPU arrives on a count in
// that GPU; the block that completes it speaks for the GPU and runs the algorithm's cross-GPU
// exchange; it then releases its GPU's blocks through one local word. The algorithm keeps a
// GpuGather among its own words and passes its exchange.
#pragma once

#include "multigpu/frame/crossing.cuh"

namespace gb::mg {

struct GpuGather {
  alignas(128) Word arrived;  // blocks of this GPU that reached the barrier
  alignas(128) Word release;  // the epoch this GPU's blocks may pass
};

// `exchange(wait)` runs on one thread of the GPU once all its blocks have arrived and returns
// false once a watchdog expired; `wait` is false under the skip_wait fault (signal only).
template <class Bar, class Exchange>
__device__ bool gather_exchange_release(const Bar& a, GpuGather& g, Word e, Exchange exchange) {
  const Ordering o = a.ordering;
  __shared__ bool ok;
  __syncthreads();
  if (threadIdx.x == 0) {
    bool good = true;
    fence_if_relaxed(o);
    cuda::atomic_ref<Word, cuda::thread_scope_device> arrived(g.arrived);
    const Word before = o == Ordering::acquire_release
                            ? arrived.fetch_add(1, cuda::memory_order_acq_rel)
                            : arrived.fetch_add(1, cuda::memory_order_relaxed);
    if (before + 1 == e * gridDim.x) {  // this GPU's last block: the whole GPU has arrived
      fence_if_relaxed(o);
      good = exchange(a.waits());
      fence_if_relaxed(o);
      if (good) store_signal(&g.release, e, o);
    }
    if (good && a.waits()) good = wait_at_least(&g.release, e, o, a.self, a.watchdog_ns);
    fence_if_relaxed(o);
    ok = good;
  }
  __syncthreads();
  return ok;
}

}  // namespace gb::mg
