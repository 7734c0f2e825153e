// The 2D Jacobi stencil both examples share: an n x n grid of floats whose border stays fixed
// and whose interior points become the mean of their four neighbours at every iteration, and the
// reference that runs it with one kernel launch per iteration.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define EXAMPLE_CHECK(call)                                                                       \
  do {                                                                                            \
    const cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

// One point's next value from its neighbours. Written so that no multiply-add can be contracted:
// every kernel that calls it computes the same bits.
__device__ __forceinline__ float jacobi_point(float up, float down, float left, float right) {
  const float sum = ((up + down) + left) + right;
  return sum * 0.25f;
}

// The starting grid: the top border at 1, the other borders at 0, the interior a fixed pattern.
inline std::vector<float> jacobi_start(int n) {
  std::vector<float> u(static_cast<std::size_t>(n) * n, 0.0f);
  for (int j = 0; j < n; ++j) u[j] = 1.0f;
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      u[static_cast<std::size_t>(i) * n + j] = ((i * 7 + j * 13) % 17) / 17.0f;
  return u;
}

// One iteration over the interior of `in` into `out`, grid-stride over the points.
__device__ inline void jacobi_step_body(const float* in, float* out, int n) {
  const long points = static_cast<long>(n - 2) * (n - 2);
  for (long p = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; p < points;
       p += static_cast<long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(p / (n - 2)) + 1, j = static_cast<int>(p % (n - 2)) + 1;
    const long at = static_cast<long>(i) * n + j;
    out[at] = jacobi_point(in[at - n], in[at + n], in[at - 1], in[at + 1]);
  }
}

__global__ void jacobi_step(const float* in, float* out, int n) {
  jacobi_step_body(in, out, n);
}

// Two device grids a and b holding the starting grid, and two events that time one run on them;
// freed when it goes. result(iterations): the grid that `iterations` alternating steps a -> b ->
// a ... leave.
struct JacobiGrids {
  explicit JacobiGrids(int side) : n(side) {
    const std::vector<float> start = jacobi_start(n);
    bytes = start.size() * sizeof(float);
    EXAMPLE_CHECK(cudaMalloc(&a, bytes));
    EXAMPLE_CHECK(cudaMalloc(&b, bytes));
    EXAMPLE_CHECK(cudaMemcpy(a, start.data(), bytes, cudaMemcpyHostToDevice));
    EXAMPLE_CHECK(cudaMemcpy(b, start.data(), bytes, cudaMemcpyHostToDevice));
    EXAMPLE_CHECK(cudaEventCreate(&t0));
    EXAMPLE_CHECK(cudaEventCreate(&t1));
  }
  ~JacobiGrids() {
    cudaFree(a);
    cudaFree(b);
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
  }
  JacobiGrids(const JacobiGrids&) = delete;
  JacobiGrids& operator=(const JacobiGrids&) = delete;

  void start(cudaStream_t stream = nullptr) { EXAMPLE_CHECK(cudaEventRecord(t0, stream)); }
  // Milliseconds since start(), once the stream has done what it was given.
  float stop(cudaStream_t stream = nullptr) {
    float ms = 0;
    EXAMPLE_CHECK(cudaEventRecord(t1, stream));
    EXAMPLE_CHECK(cudaEventSynchronize(t1));
    EXAMPLE_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    return ms;
  }
  std::vector<float> result(int iterations) const {
    std::vector<float> out(bytes / sizeof(float));
    EXAMPLE_CHECK(cudaMemcpy(out.data(), iterations % 2 ? b : a, bytes, cudaMemcpyDeviceToHost));
    return out;
  }
  // One thread per interior point, in 256-thread blocks.
  int step_blocks() const {
    const long points = static_cast<long>(n - 2) * (n - 2);
    return static_cast<int>((points + kStepThreads - 1) / kStepThreads);
  }
  static constexpr int kStepThreads = 256;

  int n;
  std::size_t bytes = 0;
  float *a = nullptr, *b = nullptr;
  cudaEvent_t t0{}, t1{};
};

// Whether two grids are identical bit for bit.
inline bool identical(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// `iterations` launches of jacobi_step on `stream`, a to b, b to a, ...
inline void jacobi_launches(const JacobiGrids& g, int iterations, cudaStream_t stream = nullptr) {
  for (int it = 0; it < iterations; ++it) {
    jacobi_step<<<g.step_blocks(), JacobiGrids::kStepThreads, 0, stream>>>(it % 2 ? g.b : g.a,
                                                                           it % 2 ? g.a : g.b, g.n);
    EXAMPLE_CHECK(cudaGetLastError());
  }
}

// The reference: `iterations` launches of jacobi_step on the current device; the result.
inline std::vector<float> jacobi_by_launches(int n, int iterations, float* ms = nullptr) {
  JacobiGrids g(n);
  // One launch before the timed ones loads the kernel; it writes b's interior, which the first
  // iteration overwrites (and b is not the result of 0 iterations).
  jacobi_launches(g, 1);
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  g.start();
  jacobi_launches(g, iterations);
  const float took = g.stop();
  if (ms) *ms = took;
  return g.result(iterations);
}

// The same launches captured in one CUDA graph, instantiated and uploaded before the timed launch
// of the graph; the result.
inline std::vector<float> jacobi_by_graph(int n, int iterations, float* ms = nullptr) {
  JacobiGrids g(n);
  cudaStream_t stream;
  EXAMPLE_CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  EXAMPLE_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  jacobi_launches(g, iterations, stream);
  EXAMPLE_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  EXAMPLE_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  EXAMPLE_CHECK(cudaGraphUpload(exec, stream));
  EXAMPLE_CHECK(cudaStreamSynchronize(stream));
  g.start(stream);
  EXAMPLE_CHECK(cudaGraphLaunch(exec, stream));
  const float took = g.stop(stream);
  if (ms) *ms = took;
  EXAMPLE_CHECK(cudaGraphExecDestroy(exec));
  EXAMPLE_CHECK(cudaGraphDestroy(graph));
  EXAMPLE_CHECK(cudaStreamDestroy(stream));
  return g.result(iterations);
}

// "n iterations" from the command line: exit 2 with a line saying what is expected otherwise.
inline int jacobi_arg(int argc, char** argv, int index, int fallback, int least, const char* what) {
  if (argc <= index) return fallback;
  char* end = nullptr;
  const long v = std::strtol(argv[index], &end, 10);
  if (*argv[index] == '\0' || *end != '\0' || v < least || v > 1 << 20) {
    std::fprintf(stderr, "%s: %s must be an integer from %d to %d, not '%s'\n", argv[0], what,
                 least, 1 << 20, argv[index]);
    std::exit(2);
  }
  return static_cast<int>(v);
}
