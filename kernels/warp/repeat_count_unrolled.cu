// gpu.warp.repeat-count-unrolled: gpu.warp.repeat-count (warp/detail/repeat_count.cuh) with the
// chain the study (Zhang, Wahib, Zhang, Matsuoka) suspected in its section 9.4: the whole chain
// as straight-line code, one kernel per length, so the code grows with `repeats` as an unrolled
// chain's does, up to sizes past the instruction cache (`gpubarrier selfcheck`'s
// selfcheck.fadd.unrolled shows where an FADD chain stops fitting it). Each length is a kernel of
// its own and compile time grows with the code, so only a few lengths of two variants are
// compiled: __syncwarp(mask) reached from two branches and the tile shuffle, for a whole warp.
#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "warp/detail/repeat_count.cuh"

namespace gb::warp_detail {
namespace {

// `Ops` operations in straight-line code: split in halves so that nvcc unrolls it completely (a
// single `#pragma unroll` loop this long comes out as a loop).
template <long Ops, WarpAction A, class Group>
__device__ __forceinline__ unsigned unrolled_chain(const Group& g, unsigned v, unsigned next) {
  if constexpr (Ops <= 256) {
#pragma unroll
    for (long i = 0; i < Ops; ++i) v = A::step(g, v, next);
    return v;
  } else {
    v = unrolled_chain<Ops / 2, A>(g, v, next);
    return unrolled_chain<Ops - Ops / 2, A>(g, v, next);
  }
}

// warp_timed (warp/detail/warp_sync.cuh) with the whole chain unrolled, for a whole warp (the
// group's instance of 32 lanes).
template <WarpGroupKind G, WarpAction A, long Ops>
__global__ void warp_unrolled(int group_size, WarpSpan* spans) {
  const unsigned lane = threadIdx.x % 32;
  unsigned v = lane;
  long long t0 = 0, t1 = 0;
  if (G::member(lane, group_size)) {
    auto g = G::template make<32>(group_size);
    const unsigned next = (g.thread_rank() + 1) % g.size();
    // Before the first clock read, as warp_timed's guard. Never taken.
    if (next >= 32) return;
    t0 = dev::sm_clock();
    v = unrolled_chain<Ops, A>(g, v, next);
    t1 = dev::sm_clock();
  }
  dev::record_span(spans, t0, t1, v);
}

using UnrolledKernel = void (*)(int, WarpSpan*);

// The compiled lengths. A diverged __syncwarp is about 353 bytes of sm_90 code (ten instructions
// on the path, and the out-of-line blocks of its two divergence branches), so 64..1024 syncs
// span about 23..353 KiB; a shuffle is one 16-byte SHFL, so 2048..16384 of them span about
// 33..257 KiB. Both cross the size past which the FADD chain's latency rises (between 88 and
// 168 KiB of code on H200).
constexpr std::array<long, 5> kSyncs = {64, 128, 256, 512, 1024};
constexpr std::array<long, 3> kShuffles = {2048, 8192, 16384};

template <WarpGroupKind G, WarpAction A, const auto& Lengths, std::size_t... I>
constexpr std::array<UnrolledKernel, sizeof...(I)> unrolled_kernels(std::index_sequence<I...>) {
  return {&warp_unrolled<G, A, Lengths[I]>...};
}

template <WarpGroupKind G, WarpAction A, const auto& Lengths>
constexpr auto kKernels =
    unrolled_kernels<G, A, Lengths>(std::make_index_sequence<Lengths.size()>());

// The variants with an unrolled chain (codes of kRepeatVariants), their lengths and kernels.
struct Unrolled {
  long code;
  std::span<const long> lengths;
  std::span<const UnrolledKernel> kernels;
};

const Unrolled kUnrolled[] = {
    {1, kSyncs, kKernels<Split<Masked>, Sync, kSyncs>},
    {4, kShuffles, kKernels<Tiles, Shuffle, kShuffles>},
};

const Unrolled* unrolled_of(long code) {
  for (const Unrolled& u : kUnrolled)
    if (u.code == code) return &u;
  return nullptr;
}

struct UnrolledChain {
  static inline const MethodInfo info{
      .name = "gpu.warp.repeat-count-unrolled",
      .description =
          "gpu.warp.repeat-count with the whole chain unrolled, so the code grows with `repeats` "
          "past the instruction cache (the study's section 9.4 suspects its overflow); variant 1 "
          "__syncwarp(mask) reached from two branches at 64..1024 operations, 4 tile shuffle at "
          "2048..16384, a whole warp (clock technique)"};
  static bool has(const RepeatVariant& v) { return unrolled_of(v.code) != nullptr; }
  static std::vector<long> repeats(std::span<const RepeatVariant>) {
    std::vector<long> r;
    for (const Unrolled& u : kUnrolled) r.insert(r.end(), u.lengths.begin(), u.lengths.end());
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  }
  static std::string misfit(const RepeatVariant& v, long k, long r) {
    if (k != 32) return "the unrolled chains are compiled for a whole warp (group_size 32) only";
    const Unrolled& u = *unrolled_of(v.code);
    if (std::find(u.lengths.begin(), u.lengths.end(), r) == u.lengths.end())
      return "no unrolled chain of " + std::to_string(r) + " operations is compiled for " +
             std::string(v.value.name) + " (compiled: " + joined(u.lengths) + ")";
    return {};
  }
  static void launch(const RepeatVariant& v, int k, long repeats, WarpSpan* span) {
    const Unrolled& u = *unrolled_of(v.code);
    const auto at = std::find(u.lengths.begin(), u.lengths.end(), repeats);
    u.kernels[static_cast<std::size_t>(at - u.lengths.begin())]<<<1, 32>>>(k, span);
  }
  static std::string shape() { return "fully unrolled"; }
};

}  // namespace
}  // namespace gb::warp_detail

GB_REGISTER_METHOD(gb::warp_detail::RepeatCount<gb::warp_detail::UnrolledChain>)
