// A 2D Jacobi stencil in one persistent kernel: every iteration ends in gpubarrier's grid barrier
// instead of a kernel boundary. Checked against the same stencil with one launch per iteration,
// bit for bit.
//
//   jacobi_grid [n=1024] [iterations=1000]
//
// Prints both times (each after a first launch that loads its kernel); exit 0 when the two results
// are identical, 1 when they differ or CUDA fails, 2 for bad arguments.
#include <gpubarrier/grid_barrier.cuh>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "jacobi.cuh"

// All iterations in one launch. Every block runs the same number of iterations, so every block
// crosses every barrier; the barrier orders iteration k's writes before iteration k+1's reads.
__global__ void jacobi_persistent(float* a, float* b, int n, int iterations,
                                  gpubarrier::GridBarrierState state) {
  gpubarrier::GridBarrier bar(state);
  for (int it = 0; it < iterations; ++it) {
    jacobi_step_body(it % 2 ? b : a, it % 2 ? a : b, n);
    if (!bar.sync()) return;  // the watchdog gave up: leave, the host reports it
  }
}

int main(int argc, char** argv) {
  const int n = jacobi_arg(argc, argv, 1, 1024, 3, "n (grid side)");
  const int iterations = jacobi_arg(argc, argv, 2, 1000, 0, "iterations");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "jacobi_grid: no CUDA GPU\n");
    return 77;
  }

  float launches_ms = 0, persistent_ms = 0;
  const std::vector<float> want = jacobi_by_launches(n, iterations, &launches_ms);

  // As many blocks as can be resident (or as the grid has work for), all at once.
  const int threads = 256;
  unsigned resident = 0;
  EXAMPLE_CHECK(gpubarrier::max_resident_blocks(jacobi_persistent, threads, 0, &resident));
  const long points = static_cast<long>(n - 2) * (n - 2);
  const unsigned blocks =
      static_cast<unsigned>(std::min<long>(resident, (points + threads - 1) / threads));

  const std::vector<float> start = jacobi_start(n);
  const std::size_t bytes = start.size() * sizeof(float);
  float *a = nullptr, *b = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&a, bytes));
  EXAMPLE_CHECK(cudaMalloc(&b, bytes));
  EXAMPLE_CHECK(cudaMemcpy(a, start.data(), bytes, cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(b, start.data(), bytes, cudaMemcpyHostToDevice));
  cudaStream_t stream;
  EXAMPLE_CHECK(cudaStreamCreate(&stream));
  gpubarrier::GridBarrierState state;
  EXAMPLE_CHECK(gpubarrier::make_grid_barrier(&state, stream, 2'000'000'000ull));
  // A launch of no iterations first loads the kernel and crosses no barrier.
  EXAMPLE_CHECK(gpubarrier::launch_cooperative(jacobi_persistent, blocks, threads, 0, stream, a, b,
                                               n, 0, state));
  cudaEvent_t t0, t1;
  EXAMPLE_CHECK(cudaEventCreate(&t0));
  EXAMPLE_CHECK(cudaEventCreate(&t1));
  EXAMPLE_CHECK(cudaEventRecord(t0, stream));
  EXAMPLE_CHECK(gpubarrier::launch_cooperative(jacobi_persistent, blocks, threads, 0, stream, a, b,
                                               n, iterations, state));
  EXAMPLE_CHECK(cudaEventRecord(t1, stream));
  bool timed_out = false;
  EXAMPLE_CHECK(gpubarrier::grid_barrier_timed_out(state, stream, &timed_out));
  EXAMPLE_CHECK(cudaEventElapsedTime(&persistent_ms, t0, t1));
  if (timed_out) {
    std::fprintf(stderr, "jacobi_grid: a block waited at a barrier past the watchdog\n");
    return 1;
  }
  std::vector<float> got(start.size());
  EXAMPLE_CHECK(cudaMemcpy(got.data(), iterations % 2 ? b : a, bytes, cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(gpubarrier::free_grid_barrier(&state, stream));
  EXAMPLE_CHECK(cudaStreamSynchronize(stream));
  EXAMPLE_CHECK(cudaFree(a));
  EXAMPLE_CHECK(cudaFree(b));

  const bool same = std::memcmp(got.data(), want.data(), bytes) == 0;
  std::printf(
      "jacobi_grid n=%d iterations=%d blocks=%u x %d: persistent %.3f ms, "
      "launch per iteration %.3f ms: %s\n",
      n, iterations, blocks, threads, persistent_ms, launches_ms, same ? "identical" : "DIFFERENT");
  return same ? 0 : 1;
}
