// gpu.grid.count-pause-32: the library's flat count with a pause of about 32 ns after each failed
// poll (grid/count_tuned.cuh).
#include <string_view>

#include "grid/count_tuned.cuh"

namespace gb::grid {

struct CountPause32 : CountWords {
  static inline const MethodInfo info{
      .name = "gpu.grid.count-pause-32",
      .description =
          "software grid barrier: the library's one 64-bit counter that only grows, with a pause"
          " of about 32 ns after each failed poll (differential technique)"};
  using Block = PublicBlock<CountTuning<32, gpubarrier::GridArrival::acq_rel>::Barrier>;
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CountPause32>)
