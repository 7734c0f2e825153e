// pitfall.warp.wait-check: the study's section 8.1 (Figs. 17 and 18) as an experiment. Per trial,
// every thread of a group arrives at a different time, reads its clock, crosses a warp-level
// sync and reads its clock again (warp/detail/wait_trials.cuh); the sync made everybody wait iff
// min(after) >= max(before) over the group. The study saw this hold on V100 (each thread has its
// own program counter) and fail on P100. Variant no-sync crosses nothing: the negative control,
// which must show such trials, or the check could not catch a sync that does not wait.
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "core/registry.hpp"
#include "core/stamp_check.hpp"
#include "core/state.hpp"
#include "warp/detail/wait_trials.cuh"
#include "warp/detail/warp_variants.hpp"

namespace gb {
namespace {

// One variant: its value name, its name in the notes, the kernel for a group size, and its group
// kind's view of the lanes (warp/detail/warp_groups.cuh).
struct WaitVariant {
  NamedValue value;
  const char* name;
  warp_detail::WaitKernel (*kernel)(int group_size);
  int (*clock_group)(int lane, int group_size);
  std::string (*misfit)(long group_size, long smallest);
};

template <warp_detail::WarpGroupKind G, warp_detail::WarpCrossing C>
constexpr WaitVariant variant(NamedValue value, const char* name) {
  return {value, name, warp_detail::wait_kernel<G, C>, G::clock_group, G::misfit};
}

// The `variant` axis: its codes are the indices. 2-5 are numbered as in gpu.warp.reduce.
namespace variants = warp_detail::variants;
using warp_detail::Coalesced;
using warp_detail::Masked;
using warp_detail::Tiles;
constexpr WaitVariant kVariants[] = {
    variant<Masked, warp_detail::NoCrossing>(variants::no_sync, "no sync (the control)"),
    variant<Masked, warp_detail::Sync>(variants::syncwarp_mask, "__syncwarp(mask)"),
    variant<Tiles, warp_detail::Sync>(variants::tile_sync, "tile sync"),
    variant<Coalesced, warp_detail::Sync>(variants::coalesced_sync, "coalesced-group sync"),
    variant<Tiles, warp_detail::Shuffle>(variants::tile_shuffle, "tile shuffle"),
    variant<Coalesced, warp_detail::Shuffle>(variants::coalesced_shuffle, "coalesced shuffle"),
};
constexpr long kVariantCount = sizeof kVariants / sizeof kVariants[0];
constexpr long kControl = 0;

constexpr int kWarps = 64;         // one per block, on as many SMs
constexpr int kTrialRounds = 256;  // trials per group

// The clock group of every lane of every warp: tiles split each warp into 32 / k groups, the
// other kinds take lanes 0..k-1 (-1: not a member). Also counts the groups.
std::vector<int> clock_groups(const WaitVariant& variant, int k, long& groups) {
  std::vector<int> id(static_cast<std::size_t>(kWarps) * 32, -1);
  int per_warp = 0;
  for (int lane = 0; lane < 32; ++lane)
    per_warp = std::max(per_warp, variant.clock_group(lane, k) + 1);
  for (int w = 0; w < kWarps; ++w)
    for (int lane = 0; lane < 32; ++lane)
      if (const int g = variant.clock_group(lane, k); g >= 0) id[w * 32 + lane] = w * per_warp + g;
  groups = static_cast<long>(kWarps) * per_warp;
  return id;
}

class WaitCheck final : public Method {
 public:
  WaitCheck()
      : Method(
            {.name = "pitfall.warp.wait-check",
             .level = Level::warp,
             .description = "the study's section 8.1 (Fig. 17): threads of a group arrive spread "
                            "out, read the clock, cross and read it again; a trial fails when one "
                            "left before another arrived (variant no-sync is the negative control: "
                            "it must fail); failed trials per 10^6 (check technique)",
             .axes = method_axes()}) {}
  static std::vector<Axis> method_axes() {
    Axis axis{"variant", {}};
    for (long v = 0; v < kVariantCount; ++v) {
      axis.values.push_back(v);
      axis.names.emplace_back(v, kVariants[v].value);
    }
    return {axis, {"group_size", {2, 4, 8, 16, 32}}};
  }
  Requirements requirements() const override { return Requirements::single_gpu(); }

  Usability feasible(const RunContext&, const Point& p) const override {
    const long v = p.at("variant");
    const long k = p.at("group_size");
    if (k < 2 || k > 32)
      return Usability::no("group_size must be within 2..32: a group of one waits for nobody");
    if (std::string why = kVariants[v].misfit(k, 2); !why.empty()) return Usability::no(why);
    return Usability::yes();
  }

  std::vector<Measurement> measure(State& state) override {
    const RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const long v = p.at("variant");
    const int k = static_cast<int>(p.at("group_size"));
    const WaitVariant& variant = kVariants[v];

    DeviceBuffer<StampRecord> records(static_cast<std::size_t>(kTrialRounds) * kWarps * 32);
    variant.kernel(k)<<<kWarps, 32>>>(k, kTrialRounds, warp_detail::kStepCycles, LONG_MAX,
                                      records.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());

    long groups = 0;
    StampLayout layout{kTrialRounds, kWarps * 32, clock_groups(variant, k, groups)};
    const StampFindings f = check_stamps(records.to_host(), layout);
    const long trials = groups * kTrialRounds;
    return {row(v, f, trials)};
  }

 private:
  static Measurement row(long v, const StampFindings& f, long trials) {
    Measurement m;
    m.metric = Metric::check_left_early;
    m.unit = "per 1e6 trials";
    m.technique = Technique::check;
    m.statistic = Statistic::count;
    m.value = static_cast<double>(f.out_of_order) * 1e6 / static_cast<double>(trials);
    m.reps_lo = m.reps_hi = trials;
    m.stop = StopReason::fixed;
    const std::string n = std::to_string(trials);
    const std::string caught = "in " + std::to_string(f.out_of_order) + " of " + n +
                               " trials a thread left before another arrived (first: " + f.first +
                               ")";
    if (v == kControl && f.out_of_order > 0) {
      m.status = Status::unverified;
      m.note = "control (no sync): " + caught +
               ", as expected without a sync: the check catches a thread that does not wait";
    } else if (v == kControl) {
      m.status = Status::failed;
      m.note = "control (no sync): every thread left after the last arrived in " + n +
               " trials, so this check could not have caught a sync that does not wait";
    } else if (f.out_of_order > 0) {
      m.status = Status::unverified;
      m.note = "barrier check failed: " + caught + "; " + kVariants[v].name;
    } else {
      m.note = "verified: every thread left after the last arrived in " + n + " trials; " +
               kVariants[v].name;
    }
    return m;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::WaitCheck)
