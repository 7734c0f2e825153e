// gpu.warp.repeat-count: a warp sync's latency over the length of its timed chain (the study
// (Zhang, Wahib, Zhang, Matsuoka), section 9.4), every variant (warp/detail/repeat_count.cuh).
// The chain is a loop of kUnroll unrolled operations, the warp methods' own kernels
// (warp/detail/warp_sync.cuh), so its code does not grow with `repeats`: the study's suspected
// cause, an instruction cache overflowing as an unrolled chain grows, cannot occur here, and a
// change with `repeats` is the sync's own (or the clock reads', amortised over fewer operations
// at the shortest chains). gpu.warp.repeat-count-unrolled runs the chain the study suspected.
#include <string>
#include <vector>

#include "warp/detail/repeat_count.cuh"

namespace gb::warp_detail {
namespace {

// Every variant, any multiple of kUnroll operations.
struct LoopChain {
  static inline const MethodInfo info{
      .name = "gpu.warp.repeat-count",
      .description =
          "one warp's sync or shuffle latency over the chain's length, `repeats` operations "
          "between two clock reads (the study's section 9.4); variant 1 __syncwarp(mask), 2 tile "
          "sync, 3 coalesced-group sync (each reached from two branches, odd and even lanes), 4 "
          "tile shuffle, 5 coalesced shuffle (clock technique)"};
  static bool has(const RepeatVariant&) { return true; }
  static std::vector<long> repeats(std::span<const RepeatVariant>) {
    return {32, 128, 512, 2048, 8192, 32768};
  }
  static std::string misfit(const RepeatVariant&, long, long r) {
    if (r < kUnroll || r % kUnroll != 0 || r > (1L << 30))
      return "repeats must be a multiple of " + std::to_string(kUnroll) +
             " (one unrolled loop trip) within " + std::to_string(kUnroll) + "..2^30";
    return {};
  }
  static void launch(const RepeatVariant& v, int k, long repeats, WarpSpan* span) {
    v.kernels(k).timed<<<1, 32>>>(k, repeats / kUnroll, span);
  }
  static std::string shape() { return "a loop of " + std::to_string(kUnroll) + " unrolled"; }
};

}  // namespace
}  // namespace gb::warp_detail

GB_REGISTER_METHOD(gb::warp_detail::RepeatCount<gb::warp_detail::LoopChain>)
