// The persistent cooperative kernel of every device-side multi-GPU barrier, generic over the
// algorithm, and its one-crossing-per-launch twin (launch=graph, barrier_step_kernel). An
// algorithm is a type in its own file (kernels/multigpu/push.cu, ...) that frame/algorithm.cuh
// states and checks: its name and description, its signal words (one set per GPU, in that GPU's
// memory, which peers write), its kernel arguments and
//   template <class Bar> __device__ static bool cross(const Bar&, const Args&, Word epoch);
//     (Bar: BarrierArgs, or OrderedArgs<O> whose `ordering` is a constant; a cross that takes
//     `const BarrierArgs&` also works, with the ordering read at every crossing)
// `cross` is called by every thread of every block once per barrier crossing and returns false
// once a watchdog expired; the kernel around it stamps and checks while verifying.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/check_draw.hpp"
#include "core/faults.hpp"
#include "multigpu/frame/signals.cuh"

namespace gb::mg {

__device__ __forceinline__ bool aborted(const Control* self) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(const_cast<Control*>(self)->abort)
             .load(cuda::memory_order_relaxed) != 0;
}

// Before barrier e: the late block waits, then every thread writes its payload word with a plain
// store (message passing: the barrier must publish it) and thread 0 the block's stamp.
__device__ inline void before_barrier(const BarrierArgs& a, Word e) {
  if (threadIdx.x == 0 && a.late_ns &&
      check_late(a.rank, a.ranks, blockIdx.x, gridDim.x, a.seed, e)) {
    const std::uint64_t until = dev::global_ns() + a.late_ns;
    while (dev::global_ns() < until) __nanosleep(1000);
  }
  __syncthreads();
  a.payload[a.member][blockIdx.x * blockDim.x + threadIdx.x] = static_cast<unsigned>(e);
  if (threadIdx.x == 0)
    *static_cast<volatile unsigned*>(a.stamps[a.member] + blockIdx.x) = static_cast<unsigned>(e);
}

// After barrier e every block of every member must see every block's stamp e (or later), and the
// payload of one other block (drawn per block and barrier, on any member) with plain loads.
__device__ inline void after_barrier(const BarrierArgs& a, Word e) {
  unsigned bad = 0;
  const unsigned blocks = gridDim.x;
  const unsigned total = static_cast<unsigned>(a.members) * blocks;
  for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
    const volatile unsigned* s = a.stamps[i / blocks];
    bad += s[i % blocks] < static_cast<unsigned>(e);
  }
  if (bad) atomicAdd(&a.self->stale, bad);
  if (total < 2) return;
  const unsigned me = static_cast<unsigned>(a.member) * blocks + blockIdx.x;
  const unsigned other = (me + 1 + check_draw(a.seed ^ me, e) % (total - 1)) % total;
  const unsigned* words = a.payload[other / blocks] + (other % blocks) * blockDim.x;
  const int stale = __syncthreads_count(words[threadIdx.x] < static_cast<unsigned>(e));
  if (threadIdx.x == 0 && stale) atomicAdd(&a.self->payload_stale, static_cast<unsigned>(stale));
}

// Crossing e between the block's stamp and its check while verifying. `cross(e)` crosses
// barrier e; false: a watchdog expired.
template <class Cross>
__device__ bool checked_crossing(const BarrierArgs& a, Word e, Cross cross) {
  const bool check = a.stamps[0] != nullptr;
  if (check) before_barrier(a, e);
  if (!cross(e)) return false;
  if (check) after_barrier(a, e);
  return true;
}

// The `reps` crossings of one launch; a false `cross` ends the launch. Shared with the kernels of
// library barriers (multigpu/nccl_lsa.cu), which bring their own cross.
template <class Cross>
__device__ void crossings(const BarrierArgs& a, Cross cross) {
  for (long r = 0; r < a.reps; ++r)
    if (!checked_crossing(a, a.epoch0 + static_cast<Word>(r) + 1, cross)) return;
}

// Whether this GPU stays out of the barriers: the absent faults' last member.
__device__ inline bool stays_out(const BarrierArgs& a) {
  const bool timing = a.stamps[0] == nullptr;
  return (a.fault == Fault::absent || (a.fault == Fault::absent_timing && timing)) &&
         a.rank == a.ranks - 1;
}

// The persistent kernel. `Bar` is BarrierArgs (the ordering read at run time; the multi-node
// kernels) or OrderedArgs<O> (the ordering a constant: ordered_barrier_kernel), which an
// algorithm whose cross is a template on its first argument sees as such.
template <class Algo, class Bar = BarrierArgs>
__global__ void barrier_kernel(const __grid_constant__ Bar a,
                               const __grid_constant__ typename Algo::Args x) {
  if (stays_out(a)) return;
  crossings(a, [&](Word e) { return Algo::cross(a, x, e); });
}

// The persistent kernel of Algo compiled for ordering O, as a pointer to launch.
template <class Algo, Ordering O>
const void* kernel_for() {
  return reinterpret_cast<const void*>(barrier_kernel<Algo, OrderedArgs<O>>);
}

// The persistent kernel of Algo compiled for ordering `o` (runtime/barrier_args.cuh,
// OrderedArgs), to launch with the BarrierArgs whose ordering is `o`; a value outside the
// orderings gives ordering 0's (for an occupancy query before the point is refused).
template <class Algo>
const void* ordered_barrier_kernel(Ordering o) {
  switch (o) {
    case Ordering::relaxed_fenced:
      return kernel_for<Algo, Ordering::relaxed_fenced>();
    case Ordering::relaxed_acq_rel:
      return kernel_for<Algo, Ordering::relaxed_acq_rel>();
    case Ordering::unordered:
      return kernel_for<Algo, Ordering::unordered>();
    default:
      return kernel_for<Algo, Ordering::acquire_release>();
  }
}

// One crossing per launch, one block per GPU (launch=1: a CUDA graph of such launches,
// frame/step_graphs.cuh). Its epoch comes from `*epoch`, the barriers this GPU completed, which
// thread 0 reads before the crossing and advances after it; the next launch, which starts when
// this one has ended, reads it again. So a captured graph, whose arguments are fixed, goes on from
// where the last launch ended. After a watchdog expired (`abort`) every later launch leaves at
// once.
template <class Algo>
__global__ void barrier_step_kernel(const __grid_constant__ BarrierArgs a,
                                    const __grid_constant__ typename Algo::Args x, Word* epoch) {
  if (stays_out(a) || aborted(a.self)) return;
  __shared__ Word e;
  if (threadIdx.x == 0) e = *epoch + 1;
  __syncthreads();
  if (!checked_crossing(a, e, [&](Word w) { return Algo::cross(a, x, w); })) return;
  if (threadIdx.x == 0) *epoch = e;
}

}  // namespace gb::mg
