// What every single-GPU reduction shares (the study (Zhang, Wahib, Zhang, Matsuoka),
// section 7.4): the `bytes` and `cache` axes, the input on the device with its exact sum, the check
// against it and the event-timed figures, L2 evicted before every sample when cold
// (common/l2_evict.hpp). A reduction supplies `run`, which enqueues one whole reduction whose
// result lands in `out`.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/event_timing.hpp"
#include "common/l2_evict.hpp"
#include "core/state.hpp"
#include "reduction/input.cuh"

namespace gb::reduction {

class SingleReduction : public Method {
 public:
  using Method::Method;
  // A single-GPU reduction's axes: its own (`extra`), then bytes and cache.
  static std::vector<Axis> single_axes(std::vector<Axis> extra = {}) {
    extra.push_back({"bytes", default_bytes()});
    extra.push_back(cache_axis());
    return extra;
  }
  Requirements requirements() const override { return Requirements::single_gpu(); }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long bytes = p.at("bytes");
    if (const char* why = bytes_refusal(bytes)) return Usability::no(why);
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const auto evict = static_cast<long>(cache_memory(p, ctx.gpus.front()));
    return fits_in_memory(bytes * copies() + evict, 1);
  }

  Verification verify(State& state) override {
    Input& in = input(state);
    in.out.zero();
    run(state, in);
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    return in.check(in.out.to_host()[0], in.exact);
  }

  std::vector<Measurement> measure(State& state) override {
    Input& in = input(state);
    const CachePolicy& cache = cache_of(state);
    std::vector<Measurement> rows = latency_and_bandwidth(
        event_samples(state.ctx(), 0, [&] { run(state, in); }, cache.before(0)),
        static_cast<double>(in.n) * sizeof(double) * traffic(), "GB/s");
    for (Measurement& m : rows) m.note = join_notes(figure_note(state, in), cache.note());
    return rows;
  }

 protected:
  // Device arrays of `bytes` the point needs (feasibility).
  virtual int copies() const { return 1; }
  // Bytes moved per byte of input (the bandwidth figure).
  virtual double traffic() const { return 1; }
  // Enqueues one reduction of in.data into in.out on the default stream.
  virtual void run(State& state, Input& in) = 0;
  virtual std::string figure_note(State&, const Input& in) const { return error_note(in.error); }

  static const CachePolicy& cache_of(State& state) {
    return cache_policy(state, {state.ctx().gpus.front()});
  }
  static std::string join_notes(const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + "; " + b;
  }

  static Input& input(State& state) {
    GB_CUDA_CHECK(cudaSetDevice(state.ctx().gpus.front()));
    return state.resource<Input>(static_cast<std::uint64_t>(state.point().at("bytes")) / 8);
  }
};

}  // namespace gb::reduction
