// A warp method as a file under kernels/warp/ holds it (kernels/warp/syncwarp.cu), for
// test_compile_fail.py: as it stands it registers; each case below breaks it one way, and
// the WarpSync concept (warp/detail/warp_sync.cuh) must refuse it.
// CASE misspelt_info: "type constraint failed for" "CompileFailSync" "concept WarpSync"
// CASE missing_action: "type constraint failed for" "CompileFailSync" "concept WarpSync"
// CASE action_without_check: "concept is false" "CompileFailSync::Action" "concept WarpAction"
#include "core/registry.hpp"
#include "warp/detail/warp_sync.cuh"

namespace gb::warp {

// Sync's members but its stamp check, whose name is misspelt: no WarpAction.
struct SyncWithoutCheck {
  static constexpr std::string_view ops = "warp-syncs";
  template <class Group>
  __device__ static unsigned partner(const Group& g) {
    return warp_detail::Sync::partner(g);
  }
  template <class Group>
  __device__ static void cross(const Group& g, unsigned& value, unsigned next) {
    warp_detail::Sync::cross(g, value, next);
  }
  template <class Group>
  __device__ static unsigned step(const Group& g, unsigned v, unsigned next) {
    return warp_detail::Sync::step(g, v, next);
  }
  template <class Group>
  __device__ static void chek(const Group& g, int rounds, StampRecord* out, volatile unsigned* s,
                              unsigned lane) {
    warp_detail::Sync::check(g, rounds, out, s, lane);
  }
};

struct CompileFailSync {
#if defined(GB_CASE_MISSPELT_INFO)
  static inline const MethodInfo infos{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.warp.compile-fail",
      .description = "__syncwarp(mask), for a compile-time test"};
  using Group = warp_detail::Masked;
#if defined(GB_CASE_ACTION_WITHOUT_CHECK)
  using Action = SyncWithoutCheck;
#elif !defined(GB_CASE_MISSING_ACTION)
  using Action = warp_detail::Sync;
#endif
};

}  // namespace gb::warp

GB_REGISTER_METHOD(gb::warp_detail::WarpMethod<gb::warp::CompileFailSync>)
