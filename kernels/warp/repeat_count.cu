// gpu.warp.repeat-count and gpu.warp.repeat-count-unrolled: a warp sync's latency over the length
// of its timed chain (the study (Zhang, Wahib, Zhang, Matsuoka), section 9.4: "the latency of the
// synchronization instruction might increase suddenly when increasing repeat times"; all but the
// tile shuffle). One warp runs `repeats` dependent operations between two clock reads and the
// figure is cycles per operation. The syncs are those a diverged program pays, every one reached
// from two branches (Split groups), since a converged chain's syncs compile to nothing on sm_90;
// the shuffles are the converged chains of gpu.warp.tile-shuffle and gpu.warp.coalesced-shuffle.
// The two methods differ in the shape of the chain alone (a Chain policy):
// - LoopChain (gpu.warp.repeat-count): a loop of kUnroll unrolled operations, the warp methods'
//   own kernels (warp/detail/warp_sync.cuh), so its code does not grow with `repeats`: the
//   study's suspected cause, an instruction cache overflowing as an unrolled chain grows, cannot
//   occur, and a change with `repeats` is the sync's own (or the clock reads', amortised over
//   fewer operations at the shortest chains);
// - UnrolledChain (gpu.warp.repeat-count-unrolled): the whole chain as straight-line code, one
//   kernel per length, so the code grows with `repeats` as an unrolled chain's does, up to sizes
//   past the instruction cache (`gpubarrier selfcheck`'s selfcheck.fadd.unrolled shows where an
//   FADD chain stops fitting it). Each length is a kernel of its own and compile time grows with
//   the code, so only a few lengths of two variants are compiled: __syncwarp(mask) reached from
//   two branches (each sync about ten instructions on the path plus its out-of-line WARPSYNC
//   block) and the tile shuffle (one SHFL each), both for a whole warp.
#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"
#include "warp/detail/warp_variants.hpp"

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

// The compiled lengths. A diverged __syncwarp is about 345 bytes of sm_90 code (ten instructions
// on the path, and the out-of-line blocks of its two divergence branches), so 64..1024 syncs
// span about 22..353 KiB; a shuffle is one 16-byte SHFL, so 2048..16384 of them span about
// 33..266 KiB. Both cross the ~168 KiB past which the FADD chain's latency rises on H200.
constexpr std::array<long, 5> kUnrolledSyncs = {64, 128, 256, 512, 1024};
constexpr std::array<long, 3> kUnrolledShuffles = {2048, 8192, 16384};

template <WarpGroupKind G, WarpAction A, const auto& Lengths, std::size_t... I>
constexpr std::array<UnrolledKernel, sizeof...(I)> unrolled_kernels(std::index_sequence<I...>) {
  return {&warp_unrolled<G, A, Lengths[I]>...};
}

template <WarpGroupKind G, WarpAction A, const auto& Lengths>
constexpr auto kUnrolledKernels =
    unrolled_kernels<G, A, Lengths>(std::make_index_sequence<Lengths.size()>());

struct RepeatVariant {
  long code;
  NamedValue value;
  WarpKernels (*kernels)(int group_size);
  std::string (*misfit)(long group_size);
  int (*clock_group)(int lane, int group_size);
  // The unrolled chain's lengths and kernels (empty: no unrolled chain of this variant).
  std::span<const long> unrolled_lengths;
  std::span<const UnrolledKernel> unrolled;
};

template <WarpGroupKind G, WarpAction A>
constexpr RepeatVariant repeat_variant(long code, NamedValue value) {
  return {code, value, &select_kernels<G, A>, [](long k) { return G::misfit(k, 1); },
          [](int lane, int k) { return G::clock_group(lane, k); }};
}

template <WarpGroupKind G, WarpAction A, const auto& Lengths>
constexpr RepeatVariant unrolled_variant(long code, NamedValue value) {
  RepeatVariant v = repeat_variant<G, A>(code, value);
  v.unrolled_lengths = Lengths;
  v.unrolled = kUnrolledKernels<G, A, Lengths>;
  return v;
}

// The codes and names of the variant axis (the warp variants' names,
// warp/detail/warp_variants.hpp).
const RepeatVariant kRepeatVariants[] = {
    unrolled_variant<Split<Masked>, Sync, kUnrolledSyncs>(1, variants::syncwarp_mask),
    repeat_variant<Split<Tiles>, Sync>(2, variants::tile_sync),
    repeat_variant<Split<Coalesced>, Sync>(3, variants::coalesced_sync),
    unrolled_variant<Tiles, Shuffle, kUnrolledShuffles>(4, variants::tile_shuffle),
    repeat_variant<Coalesced, Shuffle>(5, variants::coalesced_shuffle),
};

const RepeatVariant* repeat_variant_of(long code) {
  for (const RepeatVariant& v : kRepeatVariants)
    if (v.code == code) return &v;
  return nullptr;
}

std::string joined(std::span<const long> values) {
  std::string s;
  for (const long v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

// A chain of a loop of kUnroll unrolled operations: every variant, any multiple of kUnroll.
struct LoopChain {
  static constexpr std::string_view name = "gpu.warp.repeat-count";
  static constexpr std::string_view description =
      "one warp's sync or shuffle latency over the chain's length, `repeats` operations "
      "between two clock reads (the study's section 9.4); variant 1 __syncwarp(mask), 2 "
      "tile sync, 3 coalesced-group sync (each reached from two branches, odd and even "
      "lanes), 4 tile shuffle, 5 coalesced shuffle (clock technique)";
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
  static std::string shape() {
    return "a loop of " + std::to_string(kUnroll) + " unrolled";
  }
};

// The whole chain unrolled: the variants and lengths compiled (kUnrolledSyncs,
// kUnrolledShuffles), whole warps only.
struct UnrolledChain {
  static constexpr std::string_view name = "gpu.warp.repeat-count-unrolled";
  static constexpr std::string_view description =
      "gpu.warp.repeat-count with the whole chain unrolled, so the code grows with `repeats` "
      "past the instruction cache (the study's section 9.4 suspects its overflow); variant 1 "
      "__syncwarp(mask) reached from two branches at 64..1024 operations, 4 tile shuffle at "
      "2048..16384, a whole warp (clock technique)";
  static bool has(const RepeatVariant& v) { return !v.unrolled.empty(); }
  static std::vector<long> repeats(std::span<const RepeatVariant> all) {
    std::vector<long> r;
    for (const RepeatVariant& v : all)
      for (const long n : v.unrolled_lengths)
        if (std::find(r.begin(), r.end(), n) == r.end()) r.push_back(n);
    std::sort(r.begin(), r.end());
    return r;
  }
  static std::string misfit(const RepeatVariant& v, long k, long r) {
    if (k != 32) return "the unrolled chains are compiled for a whole warp (group_size 32) only";
    if (std::find(v.unrolled_lengths.begin(), v.unrolled_lengths.end(), r) ==
        v.unrolled_lengths.end())
      return "no unrolled chain of " + std::to_string(r) + " operations is compiled for " +
             std::string(v.value.name) + " (compiled: " + joined(v.unrolled_lengths) + ")";
    return {};
  }
  static void launch(const RepeatVariant& v, int k, long repeats, WarpSpan* span) {
    const auto at = std::find(v.unrolled_lengths.begin(), v.unrolled_lengths.end(), repeats);
    v.unrolled[static_cast<std::size_t>(at - v.unrolled_lengths.begin())]<<<1, 32>>>(k, span);
  }
  static std::string shape() { return "fully unrolled"; }
};

template <class Chain>
class RepeatCount final : public Method {
 public:
  std::string_view name() const override { return Chain::name; }
  Level level() const override { return Level::warp; }
  std::string_view description() const override { return Chain::description; }
  std::vector<Axis> axes() const override {
    std::vector<ValueName> names;
    std::vector<long> codes;
    std::vector<RepeatVariant> mine;
    for (const RepeatVariant& v : kRepeatVariants) {
      if (!Chain::has(v)) continue;
      codes.push_back(v.code);
      names.push_back({v.code, v.value});
      mine.push_back(v);
    }
    return {{"variant", codes, names},
            {"group_size", {32}},
            {"repeats", Chain::repeats(mine)}};
  }
  Requirements requirements() const override { return Requirements::single_gpu(); }
  Usability feasible(const RunContext&, const Point& p) const override {
    const RepeatVariant* v = repeat_variant_of(p.at("variant"));
    if (!v || !Chain::has(*v)) return Usability::no("variant must be one of " + variant_codes());
    const long k = p.at("group_size");
    if (k < 1 || k > 32) return Usability::no("group_size must be within 1..32 (one warp)");
    if (std::string why = v->misfit(k); !why.empty()) return Usability::no(why);
    if (std::string why = Chain::misfit(*v, k, p.at("repeats")); !why.empty())
      return Usability::no(why);
    return Usability::yes();
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const RepeatVariant& v = *repeat_variant_of(p.at("variant"));
    const int k = static_cast<int>(p.at("group_size"));
    DeviceBuffer<StampRecord> records(static_cast<std::size_t>(kCheckRounds) * 32);
    v.kernels(k).check<<<1, 32>>>(k, kCheckRounds, records.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    StampLayout layout{kCheckRounds, 32, std::vector<int>(32)};
    for (int lane = 0; lane < 32; ++lane) layout.clock_group[lane] = v.clock_group(lane, k);
    return check_stamps(records.to_host(), layout).verdict();
  }

  // One warp alone on the GPU, as the warp methods' latency.
  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const int device = ctx.gpus.front();
    GB_CUDA_CHECK(cudaSetDevice(device));
    const RepeatVariant& v = *repeat_variant_of(p.at("variant"));
    const int k = static_cast<int>(p.at("group_size"));
    const long repeats = p.at("repeats");
    const SmClock clock = measure_sm_clock(device);
    DeviceBuffer<WarpSpan> one(1);
    auto latency = [&] {
      Chain::launch(v, k, repeats, one.get());
      GB_CUDA_CHECK(cudaGetLastError());
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      const WarpSpan w = one.to_host()[0];
      return static_cast<double>(w.t1 - w.t0) / static_cast<double>(repeats);
    };
    std::vector<Measurement> rows = clock_technique(ctx, latency, clock, repeats);
    for (Measurement& m : rows)
      m.note += std::string(m.note.empty() ? "" : "; ") + std::to_string(repeats) +
                " operations between the clock reads, " + Chain::shape();
    return rows;
  }

 private:
  static std::string variant_codes() {
    std::vector<long> codes;
    for (const RepeatVariant& v : kRepeatVariants)
      if (Chain::has(v)) codes.push_back(v.code);
    return joined(codes);
  }
};

}  // namespace
}  // namespace gb::warp_detail

GB_REGISTER_METHOD(gb::warp_detail::RepeatCount<gb::warp_detail::LoopChain>)
GB_REGISTER_METHOD(gb::warp_detail::RepeatCount<gb::warp_detail::UnrolledChain>)
