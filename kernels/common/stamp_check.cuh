// Device half of the barrier correctness check (src/core/stamp_check.hpp has the protocol and
// the host-side verdict). Each check kernel supplies how to publish a stamp, how to cross the
// barrier and how to read a peer; the rounds, clock readings and records are common.
#pragma once

#include <climits>

#include "common/timers.cuh"
#include "core/stamp_check.hpp"

namespace gb::dev {

// Runs `rounds` rounds for one participant and writes its record of round r to out[(r-1)*stride].
// publish(r) makes stamp r visible to the peers; cross() is the barrier under test; peer(i),
// i < peers, reads the stamp of the i-th peer (the participant itself may be one of them).
template <typename Publish, typename Cross, typename Peer>
__device__ void stamp_rounds(int rounds, StampRecord* out, int stride, Publish publish,
                             Cross cross, int peers, Peer peer) {
  for (int r = 1; r <= rounds; ++r) {
    StampRecord rec;
    publish(static_cast<unsigned>(r));
    rec.before = sm_clock();
    cross();
    rec.after = sm_clock();
    unsigned lo = UINT_MAX, hi = 0;
    for (int i = 0; i < peers; ++i) {
      const unsigned s = peer(i);
      lo = min(lo, s);
      hi = max(hi, s);
    }
    rec.seen_min = lo;
    rec.seen_max = hi;
    out[static_cast<long>(r - 1) * stride] = rec;
  }
}

}  // namespace gb::dev
