// A 2D Jacobi stencil in one persistent kernel: every iteration ends in gpubarrier's grid barrier
// instead of a kernel boundary. Checked against the same stencil with one launch per iteration,
// bit for bit, and timed beside every other way to run it: the same launches captured in one CUDA
// graph, and the persistent kernel with cooperative groups' grid.sync() and with libcu++'s
// cuda::barrier<thread_scope_device> (one arrival per block) in place of gpubarrier's barrier.
//
//   jacobi_grid [n=1024] [iterations=1000]
//
// Prints the times (each after a first launch that loads its kernel) on one line; exit 0 when
// every result is identical to one launch per iteration, 1 when one differs or CUDA fails, 2 for
// bad arguments.
#include <cooperative_groups.h>
#include <gpubarrier/grid_barrier.cuh>

#include <cuda/barrier>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "jacobi.cuh"

using DeviceBarrier = cuda::barrier<cuda::thread_scope_device>;

// How a persistent kernel's blocks meet between iterations: gpubarrier's GridBarrier, grid.sync()
// or a cuda::barrier. sync() is called by every thread of every block; false: give up.
struct LibraryBarrier {
  gpubarrier::GridBarrier bar;
  __device__ explicit LibraryBarrier(const gpubarrier::GridBarrierState& s, DeviceBarrier*)
      : bar(s) {}
  __device__ bool sync() { return bar.sync(); }
};
struct GridSync {
  __device__ GridSync(const gpubarrier::GridBarrierState&, DeviceBarrier*) {}
  __device__ bool sync() {
    cooperative_groups::this_grid().sync();
    return true;
  }
};
struct CudaBarrier {
  DeviceBarrier* bar;
  __device__ CudaBarrier(const gpubarrier::GridBarrierState&, DeviceBarrier* b) : bar(b) {}
  __device__ bool sync() {
    __syncthreads();
    if (threadIdx.x == 0) bar->arrive_and_wait();
    __syncthreads();
    return true;
  }
};

// All iterations in one launch. Every block runs the same number of iterations, so every block
// crosses every barrier; the barrier orders iteration k's writes before iteration k+1's reads.
template <class Barrier>
__global__ void jacobi_persistent(float* a, float* b, int n, int iterations,
                                  gpubarrier::GridBarrierState state, DeviceBarrier* cuda_bar) {
  Barrier bar(state, cuda_bar);
  for (int it = 0; it < iterations; ++it) {
    jacobi_step_body(it % 2 ? b : a, it % 2 ? a : b, n);
    if (!bar.sync()) return;  // the watchdog gave up: leave, the host reports it
  }
}

__global__ void make_device_barrier(DeviceBarrier* bar, unsigned blocks) {
  new (bar) DeviceBarrier(blocks);
}

// One persistent run with `Barrier` on fresh grids: its time (ms) and whether its result equals
// `want`. Exits 1 when the watchdog gave up.
template <class Barrier>
bool run_persistent(int n, int iterations, unsigned blocks, int threads,
                    const std::vector<float>& want, float* ms) {
  JacobiGrids g(n);
  DeviceBarrier* cuda_bar = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&cuda_bar, sizeof(DeviceBarrier)));
  cudaStream_t stream;
  EXAMPLE_CHECK(cudaStreamCreate(&stream));
  make_device_barrier<<<1, 1, 0, stream>>>(cuda_bar, blocks);
  EXAMPLE_CHECK(cudaGetLastError());
  gpubarrier::GridBarrierState state;
  EXAMPLE_CHECK(gpubarrier::make_grid_barrier(&state, stream, 2'000'000'000ull));
  // A launch of no iterations first loads the kernel and crosses no barrier.
  EXAMPLE_CHECK(gpubarrier::launch_cooperative(jacobi_persistent<Barrier>, blocks, threads, 0,
                                               stream, g.a, g.b, n, 0, state, cuda_bar));
  g.start(stream);
  EXAMPLE_CHECK(gpubarrier::launch_cooperative(jacobi_persistent<Barrier>, blocks, threads, 0,
                                               stream, g.a, g.b, n, iterations, state, cuda_bar));
  *ms = g.stop(stream);
  bool timed_out = false;
  EXAMPLE_CHECK(gpubarrier::grid_barrier_timed_out(state, stream, &timed_out));
  if (timed_out) {
    std::fprintf(stderr, "jacobi_grid: a block waited at a barrier past the watchdog\n");
    std::exit(1);
  }
  const bool same = identical(g.result(iterations), want);
  EXAMPLE_CHECK(gpubarrier::free_grid_barrier(&state, stream));
  EXAMPLE_CHECK(cudaStreamSynchronize(stream));
  EXAMPLE_CHECK(cudaStreamDestroy(stream));
  EXAMPLE_CHECK(cudaFree(cuda_bar));
  return same;
}

int main(int argc, char** argv) {
  const int n = jacobi_arg(argc, argv, 1, 1024, 3, "n (grid side)");
  const int iterations = jacobi_arg(argc, argv, 2, 1000, 0, "iterations");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "jacobi_grid: no CUDA GPU\n");
    return 77;
  }

  float launches_ms = 0, graph_ms = 0, persistent_ms = 0, grid_sync_ms = 0, cuda_barrier_ms = 0;
  const std::vector<float> want = jacobi_by_launches(n, iterations, &launches_ms);
  const bool graph_same = identical(jacobi_by_graph(n, iterations, &graph_ms), want);

  // As many blocks as can be resident (or as the grid has work for), all at once: the fewest
  // that any of the three persistent kernels can hold, so that all three run the same grid.
  const int threads = 256;
  unsigned resident = ~0u;
  for (const void* kernel : {reinterpret_cast<const void*>(jacobi_persistent<LibraryBarrier>),
                             reinterpret_cast<const void*>(jacobi_persistent<GridSync>),
                             reinterpret_cast<const void*>(jacobi_persistent<CudaBarrier>)}) {
    unsigned fit = 0;
    EXAMPLE_CHECK(gpubarrier::max_resident_blocks(kernel, threads, 0, &fit));
    resident = std::min(resident, fit);
  }
  const long points = static_cast<long>(n - 2) * (n - 2);
  const unsigned blocks =
      static_cast<unsigned>(std::min<long>(resident, (points + threads - 1) / threads));

  const bool same =
      run_persistent<LibraryBarrier>(n, iterations, blocks, threads, want, &persistent_ms) &&
      run_persistent<GridSync>(n, iterations, blocks, threads, want, &grid_sync_ms) &&
      run_persistent<CudaBarrier>(n, iterations, blocks, threads, want, &cuda_barrier_ms) &&
      graph_same;
  std::printf(
      "jacobi_grid n=%d iterations=%d blocks=%u x %d: persistent %.3f ms, "
      "launch per iteration %.3f ms, graph %.3f ms, grid.sync %.3f ms, cuda::barrier %.3f ms: "
      "%s\n",
      n, iterations, blocks, threads, persistent_ms, launches_ms, graph_ms, grid_sync_ms,
      cuda_barrier_ms, same ? "identical" : "DIFFERENT");
  return same ? 0 : 1;
}
