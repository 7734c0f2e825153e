// What the members of a warp-level group do together, each one type: cross the group in a
// wait-check trial (warp/detail/wait_trials.cuh), and, for the actions a warp method times
// (warp/detail/warp_sync.cuh), one step of the timed chain and the rounds of the stamp check:
//
//   struct Action {
//     static constexpr std::string_view ops;  // what the throughput counts: "warp-syncs", ...
//     template <class Group> __device__ static unsigned partner(const Group&);
//     template <class Group>                  // a wait-check crossing between the clock reads
//     __device__ static void cross(const Group&, unsigned& value, unsigned partner);
//     template <class Group>                  // one link of the timed chain: v on
//     __device__ static unsigned step(const Group&, unsigned v, unsigned partner);
//     template <class Group>                  // the stamp check (common/stamp_check.cuh)
//     __device__ static void check(const Group&, int rounds, StampRecord* out,
//                                  volatile unsigned* stamps, unsigned lane);
//   };
//
// The concepts WarpCrossing (partner and cross: a wait-check variant) and WarpAction (all of them)
// state these members. Every member is a template on the group, with its return type spelled out,
// so that the concepts check it without compiling its body.
#pragma once

#include <cooperative_groups.h>

#include <concepts>
#include <string_view>

#include "common/stamp_check.cuh"
#include "core/stamp_check.hpp"

namespace gb::warp_detail {

// Nothing between the clock reads: the wait check's negative control.
struct NoCrossing {
  template <class Group>
  __device__ static unsigned partner(const Group&) {
    return 0;
  }
  template <class Group>
  __device__ static void cross(const Group&, unsigned&, unsigned) {}
};

// The group's sync(). The check publishes through shared memory: every member reads all of its
// group's stamps.
struct Sync {
  static constexpr std::string_view ops = "warp-syncs";
  template <class Group>
  __device__ static unsigned partner(const Group&) {
    return 0;
  }
  template <class Group>
  __device__ static void cross(const Group& g, unsigned&, unsigned) {
    g.sync();
  }
  template <class Group>
  __device__ static unsigned step(const Group& g, unsigned v, unsigned) {
    g.sync();
    return v;
  }
  template <class Group>
  __device__ static void check(const Group& g, int rounds, StampRecord* out, volatile unsigned* s,
                               unsigned lane) {
    const int size = static_cast<int>(g.size());
    const unsigned first = lane - g.thread_rank();  // members are consecutive lanes
    dev::stamp_rounds(
        rounds, out, 32, [&](unsigned r) { s[dev::stamp_slot(r) * 32 + lane] = r; },
        [&] { g.sync(); }, size,
        [&](int i, unsigned r) { return s[dev::stamp_slot(r) * 32 + first + i]; });
  }
};

// A shuffle from the next member (rank + 1, round the group), a dependent chain. The check
// carries the stamp itself: each member checks the stamp it received from its neighbour.
struct Shuffle {
  static constexpr std::string_view ops = "warp-shuffles";
  template <class Group>
  __device__ static unsigned partner(const Group& g) {
    return (g.thread_rank() + 1) % g.size();
  }
  template <class Group>
  __device__ static void cross(const Group& g, unsigned& value, unsigned next) {
    value = g.shfl(value, next);
    // Never taken (members pass lane numbers round): a branch on the value received, so
    // that "after" is read once the value has arrived, not only once the shuffle issued.
    if (value >= 32) __trap();
  }
  template <class Group>
  __device__ static unsigned step(const Group& g, unsigned v, unsigned next) {
    return g.shfl(v, next);
  }
  template <class Group>
  __device__ static void check(const Group& g, int rounds, StampRecord* out, volatile unsigned*,
                               unsigned) {
    const int size = static_cast<int>(g.size());
    const unsigned next = (g.thread_rank() + 1) % size;
    unsigned mine = 0, got = 0;
    dev::stamp_rounds(
        rounds, out, 32, [&](unsigned r) { mine = r; }, [&] { got = g.shfl(mine, next); }, 1,
        [&](int, unsigned) { return got; });
  }
};

// The concepts call the members with a tile of the whole warp, a group that has them all.
using ProbeGroup = cooperative_groups::thread_block_tile<32>;

template <class C>
concept WarpCrossing = requires(const ProbeGroup& g, unsigned& value, unsigned next) {
  { C::partner(g) } -> std::same_as<unsigned>;
  { C::cross(g, value, next) } -> std::same_as<void>;
};

template <class A>
concept WarpAction = WarpCrossing<A> && requires(const ProbeGroup& g, unsigned v, int rounds,
                                                 StampRecord* out, volatile unsigned* stamps) {
  { A::ops } -> std::convertible_to<std::string_view>;
  { A::step(g, v, v) } -> std::same_as<unsigned>;
  { A::check(g, rounds, out, stamps, v) } -> std::same_as<void>;
};

}  // namespace gb::warp_detail
