// `gpubarrier selfcheck`'s sequence (the study (Zhang, Wahib, Zhang, Matsuoka), section 9.4): the
// loop kernel by the clock and the differential technique at every repeat difference, then the
// unrolled chains' instruction-cache scan. Each figure goes to the sinks as a record the moment it
// is judged; the outcome goes to the printers (src/io/selfcheck_*).
#pragma once

#include <vector>

#include "core/result_sink.hpp"
#include "core/selfcheck_outcome.hpp"
#include "core/selfcheck_records.hpp"
#include "selfcheck/add_chain.hpp"

namespace gb::selfcheck {

struct CheckOptions {
  double tolerance = 0.05;                      // largest relative deviation that agrees
  long base_trips = kLoopBaseAdds / kLoopBody;  // R_lo of the loop kernel in trips
};

// On ctx.gpus.front(); sampling as ctx.options says.
Outcome run_check(const RunContext& ctx, const CheckOptions& options, const RecordMaker& records,
                  const std::vector<ResultSink*>& sinks);

}  // namespace gb::selfcheck
