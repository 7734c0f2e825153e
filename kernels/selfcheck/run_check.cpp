#include "selfcheck/run_check.hpp"

#include "selfcheck/add_figures.hpp"

namespace gb::selfcheck {

Outcome run_check(const RunContext& ctx, const CheckOptions& options, const RecordMaker& records,
                  const std::vector<ResultSink*>& sinks) {
  const auto emit = [&](const Record& r) {
    for (ResultSink* s : sinks) s->write(r);
  };
  AddFigures figures(ctx);
  const double hz = figures.sm_clock_hz();
  Outcome o;
  o.gpu = ctx.gpus.front();
  o.gpu_model = ctx.env.gpu_model;
  o.sm_clock_hz = hz;
  o.tolerance = options.tolerance;
  o.loop_body = kLoopBody;
  o.base_trips = options.base_trips;
  o.base_adds = kBaseAdds;

  // The check: the loop kernel by both techniques at every repeat difference.
  const long loop_lo = options.base_trips * kLoopBody;
  const Measurement lo = figures.loop_clock(loop_lo);
  o.loop_lo = figure_of(lo);
  emit(records.loop(0, options.base_trips, lo, clock_note(hz)));
  for (const long d : kDifferences) {
    const Measurement clock = figures.loop_clock(loop_lo + d);
    emit(records.loop(d, options.base_trips, clock, clock_note(hz)));
    const LoopPair pair = figures.loop_differential(loop_lo, loop_lo + d);
    const LoopRow row =
        judge_loop(loop_lo, loop_lo + d, clock, pair.figure, pair.sm_clock_hz, options.tolerance);
    emit(records.loop(d, options.base_trips, pair.figure, agreement_note(row, options.tolerance)));
    o.loop.push_back(row);
  }

  // The instruction-cache scan: unrolled chains, judged by the clock technique alone.
  const Measurement reference = figures.unrolled_clock(kBaseAdds);
  o.reference = figure_of(reference);
  emit(records.unrolled(0, kBaseAdds, reference, base_chain_note(kBaseAdds)));
  for (const long d : kDifferences) {
    const long adds = kBaseAdds + d;
    const Measurement clock = figures.unrolled_clock(adds);
    emit(records.unrolled(d, kBaseAdds, clock,
                          fit_note(adds, figure_of(clock), o.reference, kBaseAdds)));
    const Measurement differential = figures.unrolled_differential(kBaseAdds, adds);
    const ChainRow row = judge_chain(kBaseAdds, adds, clock, differential, o.reference);
    emit(records.unrolled(d, kBaseAdds, differential, launch_note(row, hz)));
    o.chains.push_back(row);
  }
  return o;
}

}  // namespace gb::selfcheck
