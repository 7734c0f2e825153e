// The 2D Jacobi stencil of jacobi_grid.cu split across GPUs by rows: one persistent kernel per
// GPU, every iteration ending in gpubarrier's device barrier across all of them; each GPU reads
// its neighbours' edge rows (the halo) straight from their memory through peer access. Checked
// against the single-GPU stencil with one launch per iteration, bit for bit.
//
//   jacobi_multigpu [gpus=all] [n=1024] [iterations=1000]
//
// Exit 0 when the results are identical, 1 when they differ or CUDA fails, 2 for bad arguments,
// 77 when fewer GPUs than asked for are visible or they cannot reach each other.
#include <gpubarrier/peer_device_barrier.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "jacobi.cuh"

// One GPU's rows [r0, r0 + rows) of the grid, in two buffers (the iterations alternate), and its
// neighbours' edge rows in their memory: up[k], the last row of the GPU above (null for the
// first GPU); down[k], the first row of the GPU below (null for the last).
struct Slab {
  float* buf[2];
  const float* up[2];
  const float* down[2];
  int r0, rows, n;
};

__global__ void jacobi_slab(Slab s, int iterations,
                            const __grid_constant__ gpubarrier::DeviceBarrierState state) {
  gpubarrier::DeviceBarrier bar(state);
  const int n = s.n;
  const long points = static_cast<long>(s.rows) * (n - 2);
  for (int it = 0; it < iterations; ++it) {
    const float* in = s.buf[it % 2];
    float* out = s.buf[(it + 1) % 2];
    for (long p = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; p < points;
         p += static_cast<long>(gridDim.x) * blockDim.x) {
      const int li = static_cast<int>(p / (n - 2)), j = static_cast<int>(p % (n - 2)) + 1;
      const int i = s.r0 + li;
      if (i < 1 || i > n - 2) continue;  // the fixed border
      const long at = static_cast<long>(li) * n + j;
      const float up = li > 0 ? in[at - n] : s.up[it % 2][j];
      const float down = li < s.rows - 1 ? in[at + n] : s.down[it % 2][j];
      out[at] = jacobi_point(up, down, in[at - 1], in[at + 1]);
    }
    if (!bar.sync()) return;  // the watchdog gave up: leave, the host reports it
  }
}

int main(int argc, char** argv) {
  int visible = 0;
  if (cudaGetDeviceCount(&visible) != cudaSuccess) visible = 0;
  const int gpus = jacobi_arg(argc, argv, 1, std::max(visible, 1), 1, "gpus");
  const int n = jacobi_arg(argc, argv, 2, 1024, 3, "n (grid side)");
  const int iterations = jacobi_arg(argc, argv, 3, 1000, 0, "iterations");
  if (gpus > visible) {
    std::fprintf(stderr, "jacobi_multigpu: needs %d GPUs, %d visible\n", gpus, visible);
    return 77;
  }
  if (gpus > n || gpus > gpubarrier::kMaxGpus) {
    std::fprintf(stderr, "jacobi_multigpu: at most min(n, %d) GPUs, not %d\n", gpubarrier::kMaxGpus,
                 gpus);
    return 2;
  }

  std::vector<int> devices(gpus);
  for (int g = 0; g < gpus; ++g) devices[g] = g;
  std::vector<gpubarrier::DeviceBarrierState> states(gpus);
  const cudaError_t made =
      gpubarrier::make_peer_device_barrier(devices.data(), gpus, states.data(), 2'000'000'000ull);
  if (made == cudaErrorPeerAccessUnsupported) {
    std::fprintf(stderr, "jacobi_multigpu: the GPUs cannot reach each other (peer access)\n");
    return 77;
  }
  EXAMPLE_CHECK(made);

  // The rows, split evenly; both buffers of every GPU start as the grid's rows.
  const std::vector<float> start = jacobi_start(n);
  std::vector<Slab> slabs(gpus);
  std::vector<cudaStream_t> streams(gpus);
  for (int g = 0; g < gpus; ++g) {
    Slab& s = slabs[g];
    s.n = n;
    s.r0 = static_cast<int>(static_cast<long>(n) * g / gpus);
    s.rows = static_cast<int>(static_cast<long>(n) * (g + 1) / gpus) - s.r0;
    EXAMPLE_CHECK(cudaSetDevice(devices[g]));
    EXAMPLE_CHECK(cudaStreamCreate(&streams[g]));
    const std::size_t bytes = static_cast<std::size_t>(s.rows) * n * sizeof(float);
    for (float*& b : s.buf) {
      EXAMPLE_CHECK(cudaMalloc(&b, bytes));
      EXAMPLE_CHECK(cudaMemcpy(b, start.data() + static_cast<std::size_t>(s.r0) * n, bytes,
                               cudaMemcpyHostToDevice));
    }
  }
  for (int g = 0; g < gpus; ++g)
    for (int k = 0; k < 2; ++k) {
      slabs[g].up[k] =
          g > 0 ? slabs[g - 1].buf[k] + static_cast<long>(slabs[g - 1].rows - 1) * n : nullptr;
      slabs[g].down[k] = g < gpus - 1 ? slabs[g + 1].buf[k] : nullptr;
    }

  // As many blocks per GPU as can be resident, or as its rows have work for; the GPUs' kernels
  // run at once (one stream each).
  const int threads = 256;
  const auto t0 = std::chrono::steady_clock::now();
  for (int g = 0; g < gpus; ++g) {
    EXAMPLE_CHECK(cudaSetDevice(devices[g]));
    unsigned resident = 0;
    EXAMPLE_CHECK(gpubarrier::max_resident_blocks(jacobi_slab, threads, 0, &resident));
    const long points = static_cast<long>(slabs[g].rows) * (n - 2);
    const unsigned blocks = static_cast<unsigned>(
        std::max<long>(1, std::min<long>(resident, (points + threads - 1) / threads)));
    EXAMPLE_CHECK(gpubarrier::launch_cooperative(jacobi_slab, blocks, threads, 0, streams[g],
                                                 slabs[g], iterations, states[g]));
  }
  bool timed_out = false;
  for (int g = 0; g < gpus; ++g) {
    EXAMPLE_CHECK(cudaSetDevice(devices[g]));
    bool t = false;
    EXAMPLE_CHECK(gpubarrier::device_barrier_timed_out(states[g], streams[g], &t));
    timed_out = timed_out || t;
  }
  const double persistent_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (timed_out) {
    std::fprintf(stderr, "jacobi_multigpu: a block waited at a barrier past the watchdog\n");
    return 1;
  }

  std::vector<float> got(start.size());
  for (int g = 0; g < gpus; ++g) {
    const Slab& s = slabs[g];
    EXAMPLE_CHECK(cudaSetDevice(devices[g]));
    EXAMPLE_CHECK(cudaMemcpy(got.data() + static_cast<std::size_t>(s.r0) * n, s.buf[iterations % 2],
                             static_cast<std::size_t>(s.rows) * n * sizeof(float),
                             cudaMemcpyDeviceToHost));
    for (float* b : s.buf) EXAMPLE_CHECK(cudaFree(b));
    EXAMPLE_CHECK(cudaStreamDestroy(streams[g]));
  }
  EXAMPLE_CHECK(gpubarrier::free_peer_device_barrier(devices.data(), gpus, states.data()));

  EXAMPLE_CHECK(cudaSetDevice(devices[0]));
  float launches_ms = 0;
  const std::vector<float> want = jacobi_by_launches(n, iterations, &launches_ms);
  const bool same = std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0;
  std::printf(
      "jacobi_multigpu gpus=%d n=%d iterations=%d: persistent across GPUs %.3f ms, "
      "one GPU launch per iteration %.3f ms: %s\n",
      gpus, n, iterations, persistent_ms, launches_ms, same ? "identical" : "DIFFERENT");
  return same ? 0 : 1;
}
