// gpu.grid.count-release: the library's flat count with a release-only add (no acquire half) for
// the arrival (grid/count_tuned.cuh).
#include <string_view>

#include "grid/count_tuned.cuh"

namespace gb::grid {

struct CountRelease : CountWords {
  static inline const MethodInfo info{
      .name = "gpu.grid.count-release",
      .description =
          "software grid barrier: the library's one 64-bit counter that only grows, with a "
          "release-only add for the arrival (differential technique)"};
  using Block = PublicBlock<CountTuning<0, gpubarrier::GridArrival::release>::Barrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CountRelease>)
