// A grid barrier as a file under kernels/grid/ holds it (kernels/grid/flag_epoch.cuh + .cu), for
// test_compile_fail.py: as it stands it registers; each case below breaks it one way, and the
// GridBarrier concept (grid/detail/grid_barrier.cuh) must refuse it.
// CASE k_prefixed_info: "GridBarrier" "CompileFailGrid" "GridBarrierMembers"
// CASE missing_state_words: "GridBarrier" "CompileFailGrid" "GridBarrierMembers"
// CASE sync_returns_void: "GridBarrier" "CompileFailGrid" "GridBarrierBlock"
// CASE block_without_watchdog: "GridBarrier" "CompileFailGrid" "GridBarrierBlock"
// CASE misspelt_clustered: "Traits" "no field" "clusterd"
#include <cstddef>
#include <string_view>

#include "common/watchdog.cuh"
#include "core/registry.hpp"
#include "grid/detail/grid_barrier.cuh"
#include "grid/detail/zero_state.hpp"

namespace gb::grid {

// No barrier at all (every block passes at once): only the members are under test.
struct CompileFailGrid : ZeroState {
#if defined(GB_CASE_K_PREFIXED_INFO)
  static inline const MethodInfo kInfo{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.grid.compile-fail",
      .description = "no barrier: a compile-time test"};
#if defined(GB_CASE_MISSPELT_CLUSTERED)
  static constexpr Traits traits{.clusterd = true};
#else
  static constexpr Traits traits{};
#endif
#if !defined(GB_CASE_MISSING_STATE_WORDS)
  static std::size_t state_words(int) {
    return 0;
  }
#endif

  class Block {
   public:
#if defined(GB_CASE_BLOCK_WITHOUT_WATCHDOG)
    __device__ explicit Block(unsigned*) {}
#else
    __device__ Block(unsigned*, const WatchdogArgs&) {}
#endif
#if defined(GB_CASE_SYNC_RETURNS_VOID)
    __device__ void sync() {}
#else
    __device__ bool sync() {
      return true;
    }
#endif
  };
};

}  // namespace gb::grid

GB_REGISTER_METHOD(gb::grid::GridBarrierMethod<gb::grid::CompileFailGrid>)
