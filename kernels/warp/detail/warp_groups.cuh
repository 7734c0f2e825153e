// The kinds of warp-level group a warp method or a wait-check variant synchronises (the study's
// section 5.1, Table 2), each one type:
//
//   struct Kind {
//     using Instances = TileSizes<...>;  // sizes known at compile time (TileSizes<32>: any, at run
//                                        // time, one kernel instance)
//     static std::vector<long> sizes();  // the group_size axis
//     static std::string misfit(long group_size, long smallest);  // empty, or why no such group
//     static int clock_group(int lane, int group_size);  // the lane's group in its warp, -1: none
//     __device__ static bool member(unsigned lane, int group_size);
//     template <int Tile> __device__ static auto make(int group_size);  // the group: sync(),
//   };                                                  // thread_rank(), size(), shfl()
//
// Split<Kind> is Kind's groups reaching every sync from two branches (a diverged program).
//
// The concept WarpGroupKind states these members.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <concepts>
#include <string>
#include <type_traits>
#include <vector>

namespace gb::warp_detail {

namespace cg = cooperative_groups;

// __syncwarp(mask) seen as a group, so that every kind shares the kernels.
struct MaskGroup {
  unsigned mask;
  __device__ void sync() const { __syncwarp(mask); }
  __device__ unsigned thread_rank() const { return threadIdx.x % 32; }  // members: lanes 0..k-1
  __device__ unsigned size() const { return __popc(mask); }
};

// The group sizes a kind's kernels are compiled for.
template <int... Sizes>
struct TileSizes {};

// Powers of two as for tiles, plus odd sizes where the warp is split unevenly.
inline std::vector<long> any_sizes() {
  return {1, 2, 3, 4, 8, 16, 17, 31, 32};
}

// tile: cg::tiled_partition<N>, tiles cover the warp.
struct Tiles {
  using Instances = TileSizes<1, 2, 4, 8, 16, 32>;
  static std::vector<long> sizes() { return {1, 2, 4, 8, 16, 32}; }
  static std::string misfit(long k, long smallest) {
    if ((k & (k - 1)) == 0) return {};
    std::string text = "tiles have ";
    for (long n = smallest; n <= 32; n *= 2)
      text += std::to_string(n) + (n == 16 ? " or " : n == 32 ? "" : ", ");
    return text + " threads";
  }
  static int clock_group(int lane, int k) { return lane / k; }
  __device__ static bool member(unsigned, int) { return true; }
  template <int Tile>
  __device__ static auto make(int) {
    return cg::tiled_partition<Tile>(cg::this_thread_block());
  }
};

// What the kinds whose group is lanes [0, group_size) of the warp share: any size, one kernel
// instance, lanes at and above group_size outside the group.
struct LanePrefix {
  using Instances = TileSizes<32>;
  static std::vector<long> sizes() { return any_sizes(); }
  static std::string misfit(long, long) { return {}; }
  static int clock_group(int lane, int k) { return lane < k ? 0 : -1; }
  __device__ static bool member(unsigned lane, int k) { return lane < static_cast<unsigned>(k); }
};

// coalesced: cg::coalesced_threads() inside a branch taken by lanes [0, group_size).
struct Coalesced : LanePrefix {
  template <int>
  __device__ static auto make(int) {
    return cg::coalesced_threads();
  }
};

// mask: __syncwarp(mask) with lanes [0, group_size) in the mask.
struct Masked : LanePrefix {
  template <int>
  __device__ static auto make(int k) {
    return MaskGroup{k >= 32 ? ~0u : (1u << k) - 1};
  }
};

// A group whose members reach every sync from two branches, odd lanes in one and even lanes in
// the other: a diverged program's sync. ptxas on sm_90 compiles a sync of a group it cannot prove
// converged to a divergence branch (BRA.DIV) around a NOP; a converged group falls through, so
// its syncs cost nothing (gpu.warp.tile-sync and the others time that), while the members here
// arrive with half the group active, take the branch and cross a real WARPSYNC.
template <class Inner>
struct SplitGroup {
  Inner inner;
  __device__ void sync() const {
    if (threadIdx.x & 1)
      inner.sync();
    else
      inner.sync();
  }
  __device__ unsigned thread_rank() const { return inner.thread_rank(); }
  __device__ unsigned size() const { return inner.size(); }
};

// TileSizes<N...> without 1.
template <class Kept, int... N>
struct DropOne {
  using type = Kept;
};
template <int... Kept, int First, int... Rest>
struct DropOne<TileSizes<Kept...>, First, Rest...>
    : DropOne<std::conditional_t<First == 1, TileSizes<Kept...>, TileSizes<Kept..., First>>,
              Rest...> {};
template <class Sizes>
struct WithoutOne;
template <int... N>
struct WithoutOne<TileSizes<N...>> : DropOne<TileSizes<>, N...> {};

// Kind's groups, split (SplitGroup): every size of Kind's but 1, whose group cannot split.
template <class Kind>
struct Split {
  using Instances = typename WithoutOne<typename Kind::Instances>::type;
  static std::vector<long> sizes() {
    std::vector<long> s = Kind::sizes();
    std::erase(s, 1L);
    return s;
  }
  static std::string misfit(long k, long smallest) {
    if (k == 1) return "a group of one lane cannot reach its sync from two branches";
    return Kind::misfit(k, std::max(smallest, 2L));
  }
  static int clock_group(int lane, int k) { return Kind::clock_group(lane, k); }
  __device__ static bool member(unsigned lane, int k) { return Kind::member(lane, k); }
  template <int Tile>
  __device__ static auto make(int k) {
    using Inner = decltype(Kind::template make<Tile>(k));
    return SplitGroup<Inner>{Kind::template make<Tile>(k)};
  }
};

template <class T>
inline constexpr bool is_tile_sizes = false;
template <int... Sizes>
inline constexpr bool is_tile_sizes<TileSizes<Sizes...>> = true;

template <class G>
concept WarpGroupKind = requires(unsigned lane, int k, long size) {
  requires is_tile_sizes<typename G::Instances>;
  { G::sizes() } -> std::same_as<std::vector<long>>;
  { G::misfit(size, size) } -> std::same_as<std::string>;
  { G::clock_group(k, k) } -> std::same_as<int>;
  { G::member(lane, k) } -> std::same_as<bool>;
  G::template make<32>(k);
};

// f(std::integral_constant<int, T>) for the instance T of kind G that serves group_size k: k itself
// where G has an instance of that size, not below `Smallest`; else 32 (a size given at run time).
template <int N, int Smallest, class F, class R>
bool take_instance(int k, F& f, R& result) {
  if constexpr (N >= Smallest) {
    if (k == N) {
      result = f(std::integral_constant<int, N>{});
      return true;
    }
  }
  return false;
}

template <int Smallest, int... N, class F>
auto pick_instance(TileSizes<N...>, int k, F f) {
  auto result = f(std::integral_constant<int, 32>{});
  (take_instance<N, Smallest>(k, f, result) || ...);
  return result;
}

template <WarpGroupKind G, int Smallest = 1, class F>
auto with_instance(int k, F f) {
  return pick_instance<Smallest>(typename G::Instances{}, k, f);
}

}  // namespace gb::warp_detail
