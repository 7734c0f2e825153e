// The trials of pitfall.warp.wait-check (the study's section 8.1, Fig. 17): does a warp-level
// sync make every thread of its group wait until the last one has arrived?
//
// In every trial each member first spins for a time of its own (lane and round decide it, so the
// group arrives spread over up to 31 steps), then reads its clock ("before"), crosses (nothing,
// the group's sync, or a shuffle through the group) and reads its clock again ("after"). All
// members of a warp read the same SM clock, so the host can tell whether somebody left before
// another arrived: min(after) < max(before) over the group (core/stamp_check.hpp, "order").
//
// Where the clocks are read matters more than anything else here. The spin loop has a second
// exit that is never taken (`spins`, LONG_MAX at run time), so the code after the clock reads is
// the first point that every path reaches: the compiler reconverges the warp there (BSYNC), after
// "after", never between the spin and "before". Without that, the warp would reconverge before
// "before" and the control (nothing between the reads) would look like a perfect barrier.
// tests/gpu/test_sass.py (warp_wait_check_bracket) checks the SASS of every variant for it.
#pragma once

#include <type_traits>

#include "core/stamp_check.hpp"
#include "runtime/timers.cuh"
#include "warp/detail/warp_actions.cuh"
#include "warp/detail/warp_groups.cuh"

namespace gb::warp_detail {

// Arrivals are spread in steps of this many SM cycles: lane l is ((l + round) % 32) steps late,
// so who arrives last goes round with the rounds. 256 cycles keep every trial of a group of two
// apart by far more than the few cycles a clock read and a loop trip take (about 4 us a trial).
constexpr long long kStepCycles = 256;

// One warp per block; records[(round * gridDim.x + block) * 32 + lane]. Lanes outside the
// group (coalesced and mask groups of fewer than 32) leave at once and record nothing.
// What a member does between its two clock reads is the crossing C (warp_actions.cuh).
template <WarpGroupKind G, WarpCrossing C, int Tile>
__global__ void wait_trials(int group_size, int rounds, long long step, long spins,
                            StampRecord* records) {
  const unsigned lane = threadIdx.x % 32;
  if (!G::member(lane, group_size)) return;
  auto g = G::template make<Tile>(group_size);
  unsigned value = lane;
  const unsigned next = C::partner(g);
  for (int r = 0; r < rounds; ++r) {
    const long long delay = static_cast<long long>((lane + r) % 32) * step;
    long long before = 0, after = 0;
    const long long start = dev::sm_clock();
    for (long i = 0; i < spins; ++i) {
      if (dev::sm_clock() - start >= delay) {
        before = dev::sm_clock();
        C::cross(g, value, next);
        after = dev::sm_clock();
        break;
      }
    }
    StampRecord* out = records + (static_cast<long>(r) * gridDim.x + blockIdx.x) * 32 + lane;
    out->before = before;
    out->after = after;
    // No stamps travel in this experiment: the visibility half of the stamp check is moot.
    out->seen_min = out->seen_max = static_cast<unsigned>(r) + 1;
  }
}

using WaitKernel = void (*)(int, int, long long, long, StampRecord*);

// Groups of one wait for nobody: tiles from 2 threads on.
template <WarpGroupKind G, WarpCrossing C>
WaitKernel wait_kernel(int group_size) {
  return with_instance<G, 2>(group_size,
                             []<int Tile>(std::integral_constant<int, Tile>) -> WaitKernel {
                               return wait_trials<G, C, Tile>;
                             });
}

}  // namespace gb::warp_detail
