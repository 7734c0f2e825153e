// Device half of the barrier correctness check (src/core/stamp_check.hpp has the protocol and
// the host-side verdict). Each check kernel supplies how to publish a stamp, how to cross the
// barrier, how to read a peer and who arrives late; the rounds, the late arrival, the clock
// readings and the records are common.
//
// The late arrival: in every round one participant (a warp of a block or cluster, a block of a
// grid) waits arrive_late() before it publishes its stamp, so that a missing barrier does not
// depend on warps drifting apart by chance. The participants start together (a block or cluster
// synchronises once before the rounds, a grid's blocks start within microseconds of each other),
// so without the barrier the others read the late stamp before it is written (stale) and leave
// before it arrives (out of order) in the first round already, and again in any later round in
// which they are not behind the late one; with the barrier they wait for it, and the check costs
// the wait per round. Who is late (LateTurn, after core/check_draw.hpp's check_late) goes round
// where the participants are few enough for each to have its turn in the check's rounds (the
// warps of a block, the blocks of a cluster) and is drawn from the seed below that (the warp in a
// cluster's block, the block of a grid).
#pragma once

#include <climits>
#include <cstdint>

#include "core/check_draw.hpp"
#include "core/stamp_check.hpp"
#include "runtime/timers.cuh"

namespace gb::dev {

// The wait must outlast what the others do in a round before they read the late stamp, at any
// clock: up to 32 warps each reading 1024 stamps from shared memory (about 4 x 10^4 SM cycles)
// or a block of a 4224-block grid reading 132 stamps from L2 one after the other (tens of us).
// In SM cycles, because the SM may still be clocking up when the check runs and the shared
// memory work scales with it; in nanoseconds as well, because L2 latency does not. About 265 us
// at 1.98 GHz, 17 ms for a check of 64 rounds with a working barrier.
constexpr long long kLateCycles = 1LL << 19;
constexpr std::uint64_t kLateNs = 200000;

__device__ inline void arrive_late() {
  const long long c0 = sm_clock();
  const std::uint64_t t0 = global_ns();
  while (sm_clock() - c0 < kLateCycles || global_ns() - t0 < kLateNs) __nanosleep(1000);
}

// Whether this participant, `unit` of `units` in group `group` of `groups`, is late in round r:
// the group goes round with the round, the unit is drawn from the seed (check_late). A block's
// check makes its warps the groups, a cluster's its blocks (the warp the unit), a grid's has one
// group whose units are the blocks.
struct LateTurn {
  int group = 0, groups = 1;
  unsigned unit = 0, units = 1;
  unsigned seed = 0;
  __device__ bool operator()(unsigned r) const {
    return check_late(group, groups, unit, units, seed, r);
  }
};

// Nobody is late: the warp checks, where all participants share one warp and a late lane would
// only make the warp wait for it at the reconvergence point.
struct NeverLate {
  __device__ bool operator()(unsigned) const { return false; }
};

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
// late(r) says whether this participant arrives late in round r (it then waits arrive_late()
// before publishing, outside its own before/after clocks); publish(r) makes stamp r visible to the
// peers (in slot stamp_slot(r)); cross() is the barrier under test; peer(i, r), i < peers, reads
// the i-th peer's stamp of round r from that slot (the participant itself may be one of them).
template <typename Publish, typename Cross, typename Peer, typename Late = NeverLate>
__device__ void stamp_rounds(int rounds, StampRecord* out, int stride, Publish publish, Cross cross,
                             int peers, Peer peer, Late late = {}) {
  for (int r = 1; r <= rounds; ++r) {
    StampRecord rec;
    if (late(static_cast<unsigned>(r))) arrive_late();
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
