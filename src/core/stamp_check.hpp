// The barrier correctness check of the study (Zhang, Wahib, Zhang, Matsuoka), section 8, evaluated
// on the host from what the participants recorded on the GPU. Kept free of CUDA so that the
// verdicts are unit-tested on machines without a GPU; kernels/common/stamp_check.cuh is the device
// half.
//
// Protocol, per round r = 1, 2, ...: every participant publishes the stamp r, reads its clock,
// crosses the barrier, reads its clock again and then reads the stamps of its peers. A barrier
// that works guarantees two things the host can check afterwards:
//  - visibility: every peer stamp read after the barrier is r or r + 1 (r + 1 when the peer has
//    already left and published the next round; r + 2 would mean it passed the next barrier
//    before this participant reached it);
//  - order (the study's Fig. 17): within a group sharing one clock, every "after" reading is later
//    than every "before" reading, i.e. nobody left before everybody had arrived.
// So that a barrier that does not wait is seen by construction, not when warps happen to drift
// apart, one participant of every round (a warp of a block or cluster, a block of a grid, in turn
// or drawn from a seed) waits far longer than the others' whole round before it publishes: the
// others, passing a barrier that did not hold them, read its previous stamp (stale) and leave
// before its "before" reading (out of order, where they share its clock), from the first round
// on, as all start together
// (kernels/common/stamp_check.cuh). Within one warp nobody can be late (a late lane would only
// hold its warp at the reconvergence point): the warp checks, and a block or a cluster of one
// warp, cannot show a missing barrier this way.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/method.hpp"

namespace gb {

// One participant in one round. Plain data: the device writes it as is.
struct StampRecord {
  long long before = 0;   // clock64() just before arriving at the barrier
  long long after = 0;    // clock64() just after leaving it
  unsigned seen_min = 0;  // smallest peer stamp read after the barrier
  unsigned seen_max = 0;  // largest
};

// How the records of one check run are laid out: round-major, `participants` per round.
struct StampLayout {
  int rounds = 0;
  int participants = 0;
  // clock_group[i]: participants with the same id share a clock (one SM) and wait for each
  // other at the barrier, so their clocks can be compared; -1 marks a slot that takes no part
  // (a lane outside a coalesced group). Empty: all participants form group 0.
  std::vector<int> clock_group;
};

struct StampFindings {
  long records = 0;       // participant-rounds evaluated
  long stale = 0;         // a peer stamp older than the round: it had not arrived or was not seen
  long ahead = 0;         // a peer stamp two rounds on: it passed the next barrier early
  long out_of_order = 0;  // (round, group) pairs where someone left before another arrived
  std::string first;      // the first problem found, for the CSV note

  bool ok() const { return stale == 0 && ahead == 0 && out_of_order == 0; }
  Verification verdict() const;
};

// Throws gb::Error when `records` does not hold rounds * participants entries or clock_group
// has the wrong length: a mismatch is a bug in the caller, not a barrier failure.
StampFindings check_stamps(std::span<const StampRecord> records, const StampLayout& layout);

}  // namespace gb
