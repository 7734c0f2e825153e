// Device half of the barrier correctness check (src/core/stamp_check.hpp has the protocol and
// the host-side verdict). Each check kernel supplies how to publish a stamp, how to cross the
// barrier and how to read a peer; the rounds, clock readings and records are common.
#pragma once

#include <climits>

#include "common/timers.cuh"
#include "core/stamp_check.hpp"

namespace gb::dev {

// Stamps live in kStampSlots slots, round r in slot stamp_slot(r): a participant that has left
// barrier r writes stamp r + 1 into the other slot while a slower one still reads slot r, so no
// read of a round races with a write (compute-sanitizer racecheck: clean by construction, not by
// the check's tolerance). Writing slot r again (round r + 2) needs barrier r + 1, which needs
// every reader of round r to arrive. A barrier that does not wait shows up as a stamp of another
// round in the slot (r - 2 or r + 2), as before.
constexpr int kStampSlots = 2;
__host__ __device__ constexpr int stamp_slot(unsigned round) {
  return static_cast<int>(round & 1u);
}

// Runs `rounds` rounds for one participant and writes its record of round r to out[(r-1)*stride].
// publish(r) makes stamp r visible to the peers (in slot stamp_slot(r)); cross() is the barrier
// under test; peer(i, r), i < peers, reads the i-th peer's stamp of round r from that slot (the
// participant itself may be one of them).
template <typename Publish, typename Cross, typename Peer>
__device__ void stamp_rounds(int rounds, StampRecord* out, int stride, Publish publish, Cross cross,
                             int peers, Peer peer) {
  for (int r = 1; r <= rounds; ++r) {
    StampRecord rec;
    publish(static_cast<unsigned>(r));
    rec.before = sm_clock();
    cross();
    unsigned lo = UINT_MAX, hi = 0;
    for (int i = 0; i < peers; ++i) {
      const unsigned s = peer(i, static_cast<unsigned>(r));
      lo = min(lo, s);
      hi = max(hi, s);
    }
    // The stores of what was seen need the peer loads to have completed, and a warp issues in
    // order: so the "after" clock below is read once the warp has really been released. A clock
    // read straight after the barrier may issue earlier (Hopper's BAR.SYNC.DEFER_BLOCKING lets a
    // warp run ahead until an instruction needs the barrier).
    StampRecord* slot = out + static_cast<long>(r - 1) * stride;
    volatile unsigned* seen = &slot->seen_min;
    seen[0] = lo;
    seen[1] = hi;
    rec.after = sm_clock();
    slot->before = rec.before;
    slot->after = rec.after;
  }
}

}  // namespace gb::dev
