// The legacy methods' figures from gpubarrier-legacy's raw timings and check counts, with the
// project's own techniques (core/techniques.hpp, core/fusion.hpp). A helper that overruns its
// deadline gives a `timeout` row (verification: Verification::timed_out), one that fails a
// `failed` row (the error reaches the runner), one that says `unsupported` a skipped row.
#pragma once

#include <functional>
#include <vector>

#include "core/method.hpp"
#include "core/state.hpp"
#include "methods/legacy/session.hpp"

namespace gb::legacy {

// multigpu.cg.multi-grid: 64 checked syncs (one block of one GPU late at each), then the
// differential technique (the study (Zhang, Wahib, Zhang, Matsuoka), Eqs. 7-8) over `sync <reps>`.
Verification verify_multi_grid(State& state, const Shape& shape);
std::vector<Measurement> measure_multi_grid(State& state, const Shape& shape);

// kernel.multi-device-launch impl=real: stamped launches (one GPU late in turn), then host-loop
// figures from the helper's per-step times, sampled in batches until the adaptive criterion stops.
Verification verify_real_launch(State& state, const Shape& shape);
std::vector<Measurement> measure_real_launch(State& state, const Shape& shape);

// reduction.multi.multi-grid: one whole reduction of a `bytes` array by the helper, from zeroed
// partial sums; `judge` gives the verdict on its result (the exact-sum check of the reductions).
Verification verify_reduction(
    State& state, const Shape& shape, long bytes,
    const std::function<Verification(const Session::ReductionResult&)>& judge);
// Latency of whole reductions by host-loop, as the other multi-GPU reductions are timed: 50
// untimed steps, then batches of 100 until the adaptive criterion stops; a step is one
// multi-device launch and the wait for every GPU. One latency Measurement (its samples kept, the
// note names the sync and the helper's versions), or a timeout row.
std::vector<Measurement> measure_reduction(State& state, const Shape& shape, long bytes);

// kernel.fusion.multi-device: launch overhead by the fusion technique (the study's Eq. 6), i
// multi-device launches of j sleep units against j launches of i units.
std::vector<Measurement> measure_multi_device_fusion(State& state, const Shape& shape, long i,
                                                     long j);

}  // namespace gb::legacy
