// The frame of gpu.warp.repeat-count and gpu.warp.repeat-count-unrolled: a warp sync's latency
// over the length of its timed chain (the study (Zhang, Wahib, Zhang, Matsuoka), section 9.4:
// "the latency of the synchronization instruction might increase suddenly when increasing repeat
// times"; all but the tile shuffle). One warp runs `repeats` dependent operations between two
// clock reads and the figure is cycles per operation. The syncs are those a diverged program
// pays, every one reached from two branches (Split groups), since a converged chain's syncs
// compile to nothing on sm_90; the shuffles are the converged chains of gpu.warp.tile-shuffle and
// gpu.warp.coalesced-shuffle. The two methods differ in the shape of the chain alone, a policy:
//
//   struct Chain {
//     static inline const MethodInfo info{.name, .description};  // the frame adds the level,
//                                  // the axes and each variant's timed instruction
//     static bool has(const RepeatVariant&);                  // the variants it runs
//     static std::vector<long> repeats(std::span<const RepeatVariant>);  // the default lengths
//     static std::string misfit(const RepeatVariant&, long group_size, long repeats);  // "" fits
//     static void launch(const RepeatVariant&, int group_size, long repeats, WarpSpan*);
//     static std::string shape();                             // for the note: "fully unrolled"
//   };
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"
#include "warp/detail/warp_variants.hpp"

namespace gb::warp_detail {

struct RepeatVariant {
  long code;
  NamedValue value;
  WarpKernels (*kernels)(int group_size);
  std::string (*misfit)(long group_size);
  int (*clock_group)(int lane, int group_size);
  TimedInstruction timed;  // its instruction and path (the axis and value are the frame's)
};

template <WarpGroupKind G, WarpAction A>
constexpr RepeatVariant repeat_variant(long code, NamedValue value, TimedInstruction timed) {
  return {code,
          value,
          &select_kernels<G, A>,
          [](long k) { return G::misfit(k, 1); },
          [](int lane, int k) { return G::clock_group(lane, k); },
          timed};
}

// The codes and names of the variant axis (the warp variants' names,
// warp/detail/warp_variants.hpp), and what each chain times: the syncs behind the divergence
// branch their Split group takes, the shuffles on the straight path.
inline constexpr TimedInstruction kDivergedSync{.instruction = "WARPSYNC",
                                                .sm90 = TimedPath::diverged};
inline constexpr TimedInstruction kShuffle{.instruction = "SHFL"};
inline const RepeatVariant kRepeatVariants[] = {
    repeat_variant<Split<Masked>, Sync>(1, variants::syncwarp_mask, kDivergedSync),
    repeat_variant<Split<Tiles>, Sync>(2, variants::tile_sync, kDivergedSync),
    repeat_variant<Split<Coalesced>, Sync>(3, variants::coalesced_sync, kDivergedSync),
    repeat_variant<Tiles, Shuffle>(4, variants::tile_shuffle, kShuffle),
    repeat_variant<Coalesced, Shuffle>(5, variants::coalesced_shuffle, kShuffle),
};

inline const RepeatVariant* repeat_variant_of(long code) {
  for (const RepeatVariant& v : kRepeatVariants)
    if (v.code == code) return &v;
  return nullptr;
}

// "64, 128, 256"
inline std::string joined(std::span<const long> values) {
  std::string s;
  for (const long v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

template <class Chain>
class RepeatCount final : public Method {
 public:
  RepeatCount() : Method(info()) {}
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
  // The chain's info with the frame's axes and, per variant it runs, the variant's instruction.
  static MethodInfo info() {
    std::vector<ValueName> names;
    std::vector<long> codes;
    std::vector<RepeatVariant> mine;
    std::vector<TimedInstruction> timed;
    for (const RepeatVariant& v : kRepeatVariants) {
      if (!Chain::has(v)) continue;
      codes.push_back(v.code);
      names.push_back({v.code, v.value});
      mine.push_back(v);
      timed.push_back({v.timed.instruction, v.timed.sm90, "variant", v.code});
    }
    MethodInfo info = framed(
        Chain::info, Level::warp,
        {{"variant", codes, names}, {"group_size", {32}}, {"repeats", Chain::repeats(mine)}});
    info.timed = std::move(timed);
    return info;
  }

  static std::string variant_codes() {
    std::vector<long> codes;
    for (const RepeatVariant& v : kRepeatVariants)
      if (Chain::has(v)) codes.push_back(v.code);
    return joined(codes);
  }
};

}  // namespace gb::warp_detail
