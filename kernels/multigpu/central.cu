// multigpu.device.central, the textbook baseline: grid.sync, one leader per GPU adds its arrival
// to a counter in member 0's memory (system-scope atomic) and spins on it, grid.sync.
#include <cooperative_groups.h>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

// Counts with atomics on peer memory: skipped where the GPUs lack native peer atomics. Its blocks
// meet with grid.sync, so a launch=graph kernel of it is a cooperative launch.
struct Central : Algorithm {
  static inline const MethodInfo info{
      .name = "multigpu.device.central",
      .description =
          "grid.sync, one leader per GPU does a system-scope fetch_add on a counter in GPU 0's "
          "memory and spins on it, grid.sync (the baseline)."};
  static constexpr Traits traits{.peer_atomics = true, .grid_sync = true};

  struct Words {
    Word counter;  // member 0's counts every GPU's arrival
  };
  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args&, Word e) {
    const Ordering o = a.ordering;
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    Word* counter = &a.template words_of<Words>(0)->counter;
    auto arrive = [&] {
      fence_if_relaxed(o);  // grid.sync orders the blocks at GPU scope only
      add_signal(counter, o);
    };
    if (!a.waits()) {
      if (leader) arrive();
      return true;
    }
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    grid.sync();
    if (leader) {
      arrive();
      wait_at_least(counter, e * a.members, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
    }
    grid.sync();
    return !aborted(a.self);
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Central>)
