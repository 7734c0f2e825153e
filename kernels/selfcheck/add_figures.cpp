#include "selfcheck/add_figures.hpp"

#include <cuda_runtime.h>

#include "common/sm_clock.hpp"
#include "core/cuda_check.hpp"
#include "core/selfcheck_analysis.hpp"
#include "core/techniques.hpp"

namespace gb::selfcheck {
namespace {

SmClock prepare_device(int device) {
  GB_CUDA_CHECK(cudaSetDevice(device));
  // The host spins while it waits: the default policy may switch to yielding for kernels of some
  // microseconds, which makes host-timed kernel latency non-linear in the work.
  GB_CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  return measure_sm_clock(device);
}

}  // namespace

AddFigures::AddFigures(const RunContext& ctx) : ctx_(ctx), clock_(prepare_device(ctx.gpus.front())) {}

Measurement AddFigures::loop_clock(long adds) {
  // The cycles figure; clock_technique's second, in ns, is not needed here.
  return clock_technique(
             ctx_, [&] { return chain_.run_loop(adds).cycles / adds; }, clock_, adds)
      .front();
}

Measurement AddFigures::unrolled_clock(long adds) {
  return clock_technique(
             ctx_, [&] { return chain_.run(adds).cycles / adds; }, clock_, adds)
      .front();
}

Measurement AddFigures::differential_between(long adds_lo, long adds_hi,
                                             const std::function<ChainSample(long)>& run) {
  RunContext pair = ctx_;
  pair.options.reps_lo = adds_lo;
  pair.options.reps_hi = adds_hi;
  return differential(pair, [&](long adds) { return run(adds).seconds; });
}

LoopPair AddFigures::loop_differential(long adds_lo, long adds_hi) {
  double cycles = 0, ns = 0;
  const Measurement m = differential_between(adds_lo, adds_hi, [&](long adds) {
    const ChainSample s = chain_.run_loop(adds);
    cycles += s.cycles;
    ns += s.ns;
    return s;
  });
  // The pair's own kernels time themselves against %globaltimer: an estimate of their clock.
  const bool own = ns > 0;
  const double hz = own ? cycles / ns * 1e9 : clock_.hz;
  Measurement figure = ns_to_cycles(m, hz);
  figure.sm_clock_source = own ? "estimate" : sm_clock_source_name(clock_.source);
  return {figure, hz};
}

Measurement AddFigures::unrolled_differential(long adds_lo, long adds_hi) {
  Measurement figure = ns_to_cycles(
      differential_between(adds_lo, adds_hi, [&](long adds) { return chain_.run(adds); }), clock_.hz);
  figure.sm_clock_source = sm_clock_source_name(clock_.source);
  return figure;
}

}  // namespace gb::selfcheck
