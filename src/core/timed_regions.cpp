#include "core/timed_regions.hpp"

#include <array>

namespace gb {
namespace {

using enum TimedPath;

// One row a line, as tests/gpu/test_sass.py (timed_instructions) reads them:
// {method, axis, value, instruction, where sm_90 holds it}.
constexpr std::array kTimedRegions{
    TimedRegion{"gpu.block.cg-sync", "", 0, "BAR.SYNC", timed},
    TimedRegion{"gpu.block.syncthreads", "", 0, "BAR.SYNC", timed},
    TimedRegion{"gpu.cluster.arrive-wait", "", 0, "UCGABAR_WAIT", timed},
    TimedRegion{"gpu.cluster.sync", "", 0, "UCGABAR_WAIT", timed},
    TimedRegion{"gpu.warp.coalesced-shuffle", "", 0, "SHFL", timed},
    TimedRegion{"gpu.warp.coalesced-sync", "", 0, "WARPSYNC", absent},
    TimedRegion{"gpu.warp.coalesced-sync-diverged", "", 0, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.reduce", "variant", 0, "DADD", timed},
    TimedRegion{"gpu.warp.reduce", "variant", 1, "DADD", timed},
    TimedRegion{"gpu.warp.reduce", "variant", 2, "WARPSYNC", absent},
    TimedRegion{"gpu.warp.reduce", "variant", 3, "WARPSYNC", absent},
    TimedRegion{"gpu.warp.reduce", "variant", 4, "SHFL", timed},
    TimedRegion{"gpu.warp.reduce", "variant", 5, "SHFL", timed},
    TimedRegion{"gpu.warp.repeat-count", "variant", 1, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.repeat-count", "variant", 2, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.repeat-count", "variant", 3, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.repeat-count", "variant", 4, "SHFL", timed},
    TimedRegion{"gpu.warp.repeat-count", "variant", 5, "SHFL", timed},
    TimedRegion{"gpu.warp.repeat-count-unrolled", "variant", 1, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.repeat-count-unrolled", "variant", 4, "SHFL", timed},
    TimedRegion{"gpu.warp.syncwarp", "", 0, "WARPSYNC", absent},
    TimedRegion{"gpu.warp.syncwarp-diverged", "", 0, "WARPSYNC", diverged},
    TimedRegion{"gpu.warp.tile-shuffle", "", 0, "SHFL", timed},
    TimedRegion{"gpu.warp.tile-sync", "", 0, "WARPSYNC", absent},
    TimedRegion{"gpu.warp.tile-sync-diverged", "", 0, "WARPSYNC", diverged},
    TimedRegion{"model.gmem.stream", "", 0, "LDG", timed},
    TimedRegion{"model.smem.stream", "", 0, "LDS", timed},
    TimedRegion{"reduction.block", "", 0, "BAR.SYNC", timed},
};

}  // namespace

std::span<const TimedRegion> timed_regions() {
  return kTimedRegions;
}

const TimedRegion* timed_region_of(std::string_view method, const Point& point) {
  for (const TimedRegion& r : kTimedRegions)
    if (r.method == method && (r.axis.empty() || point.find(r.axis) == r.value)) return &r;
  return nullptr;
}

std::string timed_region_note(std::string_view method, const Point& point, int cc) {
  const TimedRegion* r = timed_region_of(method, point);
  if (!r) return "unresolved: no SASS check names the instruction this figure times";
  if (cc != 90)
    return "unresolved: the timed region's SASS is checked for sm_90 only, this GPU is sm_" +
           std::to_string(cc);
  if (r->sm90 == TimedPath::absent)
    return "not timed: compiled to no " + std::string(r->instruction) + " on sm_90";
  return {};
}

}  // namespace gb
