// The frame of the kernel-launch methods (kernel.launch.*): the kernel boundary as an implicit
// grid barrier (the study (Zhang, Wahib, Zhang, Matsuoka), sections 4 and 9.2). One method template
// and, in a file of its own beside the others (kernels/kernel/launch_*.cu), one type and one
// registration per launch kind. Two figures per configuration: launch+sync latency (one empty
// kernel, then a stream synchronise; what a host loop that uses kernel boundaries as barriers pays
// per step) and the launch interval (empty kernels back to back in one stream, total time / count:
// what the GPU pays per boundary when the host keeps ahead). Both on the grid the boundary
// replaces, so they sit beside the grid barriers' rows.
//
// A launch kind is one type:
//   static inline const MethodInfo info{.name = "kernel.launch.<...>",
//                                       .description = "..."};  // the frame: level, axes
//   static constexpr bool captured;  // submitted as a CUDA graph captured from its launches
//   template <class... Args>         // one launch of `kernel` on the shape, in the stream
//   static void launch(const Shape&, cudaStream_t, void (*kernel)(Args...), Args... args);
//   static Usability fits(const RunContext&, long blocks_per_sm, int threads_per_block);
// The concept LaunchKind states these members: a type that lacks or misspells one does not
// register.
#pragma once

#include <cuda_runtime.h>

#include <concepts>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/device_buffer.hpp"
#include "common/occupancy.cuh"
#include "core/registry.hpp"
#include "core/scale.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"

namespace gb::kernel_detail {

constexpr int kBatch = 256;  // kernels per launch-interval sample

// The kernels are templates only so that every launch kind's file may include them: one
// instantiation, the same in every file.
template <int = 0>
__global__ void empty_kernel() {}

// The verification pair: a later kernel must see every block's stamp of the earlier one. The
// sleep keeps the stamping blocks busy long enough for an overlapping successor to show.
template <int = 0>
__global__ void stamp_kernel(unsigned* stamps, unsigned round) {
  __nanosleep(2000);
  if (threadIdx.x == 0) static_cast<volatile unsigned*>(stamps)[blockIdx.x] = round;
}

template <int = 0>
__global__ void check_kernel(const unsigned* stamps, unsigned round, unsigned* failures) {
  const volatile unsigned* s = stamps;
  unsigned bad = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) bad += s[b] != round;
  if (bad) atomicAdd(failures, bad);
}

struct Shape {
  dim3 grid, block;
};

class Stream {
 public:
  Stream() { GB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }
  void sync() const { GB_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

// A sequence of launches, enqueued anew at every submission, or `captured` once into a graph
// that is then launched as one unit. <<<>>> reports errors only through cudaGetLastError,
// checked once per submission to keep the check off the per-launch cost.
class Batch {
 public:
  Batch(bool captured, const Stream& stream, std::function<void()> enqueue)
      : stream_(stream), enqueue_(std::move(enqueue)) {
    if (!captured) return;
    cudaGraph_t graph = nullptr;
    GB_CUDA_CHECK(cudaStreamBeginCapture(stream_.get(), cudaStreamCaptureModeThreadLocal));
    enqueue_();
    GB_CUDA_CHECK(cudaStreamEndCapture(stream_.get(), &graph));
    const cudaError_t rc = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    GB_CUDA_CHECK(rc);
  }
  ~Batch() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  void submit() const {
    if (exec_) {
      GB_CUDA_CHECK(cudaGraphLaunch(exec_, stream_.get()));
      return;
    }
    enqueue_();
    GB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  const Stream& stream_;
  std::function<void()> enqueue_;
  cudaGraphExec_t exec_ = nullptr;
};

// A cooperative launch refuses grids whose blocks cannot all be resident at once (the workshop
// version: "a cooperative launch rejects over-large grids"). Such a point is a skipped row whose
// reason gives the occupancy limit and what cudaLaunchCooperativeKernel itself answered when
// asked for that grid of the empty kernel (the error it returns is not sticky).
inline Usability cooperative_fit(const RunContext& ctx, long per_sm, int threads) {
  const int device = ctx.gpus.front();
  GB_CUDA_CHECK(cudaSetDevice(device));
  Usability fit = blocks_fit("cooperative launch", per_sm, threads, empty_kernel<>, stamp_kernel<>);
  if (fit.ok) return fit;
  int sms = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const long blocks = per_sm * sms;
  if (blocks > INT_MAX) return fit;
  const cudaError_t rc = cudaLaunchCooperativeKernel(
      reinterpret_cast<const void*>(empty_kernel<>), dim3(static_cast<unsigned>(blocks)),
      dim3(static_cast<unsigned>(threads)), nullptr, 0, nullptr);
  const std::string grid = "a grid of " + std::to_string(blocks) + " blocks";
  if (rc == cudaSuccess) {
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    fit.reason += "; yet cudaLaunchCooperativeKernel launched " + grid;
  } else {
    cudaGetLastError();
    fit.reason += "; cudaLaunchCooperativeKernel refused " + grid + ": " + cudaGetErrorName(rc) +
                  " (" + cudaGetErrorString(rc) + ")";
  }
  return fit;
}

template <class K>
concept LaunchKind = requires(const Shape& s, cudaStream_t stream, const RunContext& ctx,
                              unsigned* stamps, unsigned round) {
  { K::info } -> std::same_as<const MethodInfo&>;
  typename std::bool_constant<K::captured>;
  { K::launch(s, stream, empty_kernel<>) } -> std::same_as<void>;
  { K::launch(s, stream, stamp_kernel<>, stamps, round) } -> std::same_as<void>;
  { K::fits(ctx, 1L, 1) } -> std::same_as<Usability>;
};

// One <<<>>> launch of `kernel` on the shape, in the stream (the study's "traditional" launch;
// a CUDA graph is captured from such launches).
template <class... Args>
void chevron_launch(const Shape& s, cudaStream_t stream, void (*kernel)(Args...), Args... args) {
  kernel<<<s.grid, s.block, 0, stream>>>(args...);
}

template <LaunchKind Kind>
class KernelLaunch final : public Method {
 public:
  KernelLaunch()
      : Method(framed(Kind::info, Level::kernel,
                      {{"blocks_per_sm", {1, 2, 8}}, {"threads_per_block", {128}}})) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long per_sm = p.at("blocks_per_sm");
    const long threads = p.at("threads_per_block");
    if (threads < 1 || threads > 1024 || per_sm < 1)
      return Usability::no("needs 1..1024 threads_per_block and blocks_per_sm >= 1");
    return Kind::fits(ctx, per_sm, static_cast<int>(threads));
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const Shape s = shape(ctx, p);
    constexpr unsigned kRounds = 16;
    DeviceBuffer<unsigned> stamps(s.grid.x), failures(1);
    Stream stream;
    unsigned* st = stamps.get();
    unsigned* fail = failures.get();
    const Batch rounds(Kind::captured, stream, [&] {
      for (unsigned r = 1; r <= kRounds; ++r) {
        Kind::launch(s, stream.get(), stamp_kernel<>, st, r);
        Kind::launch(s, stream.get(), check_kernel<>, static_cast<const unsigned*>(st), r, fail);
      }
    });
    rounds.submit();
    stream.sync();
    return Verification::from_failures(failures.to_host()[0],
                                       "block stamps of the previous kernel missing in the next");
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const Shape s = shape(ctx, p);
    Stream stream;
    const Batch one(Kind::captured, stream, [&] { Kind::launch(s, stream.get(), empty_kernel<>); });
    const Batch many(Kind::captured, stream, [&] {
      for (int i = 0; i < kBatch; ++i) Kind::launch(s, stream.get(), empty_kernel<>);
    });

    Measurement latency = host_loop(ctx, [&] {
      one.submit();
      stream.sync();
    });
    latency.note = "one empty kernel + cudaStreamSynchronize per step";

    Measurement interval = host_loop(ctx, [&] {
      many.submit();
      stream.sync();
    });
    interval.metric = Metric::launch_interval;
    scale_figures(interval, 1.0 / kBatch);
    interval.note = std::to_string(kBatch) +
                    " empty kernels back to back in one stream + one synchronise, per kernel";
    return {latency, interval};
  }

 private:
  static Shape shape(const RunContext& ctx, const Point& p) {
    int sms = 0;
    GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx.gpus.front()));
    return {dim3(static_cast<unsigned>(p.at("blocks_per_sm") * sms)),
            dim3(static_cast<unsigned>(p.at("threads_per_block")))};
  }
};

}  // namespace gb::kernel_detail
