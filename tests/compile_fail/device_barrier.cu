// A device-side multi-GPU barrier algorithm as a file under kernels/multigpu/ holds it
// (kernels/multigpu/hierarchical.cu lists the same hook), for tests/compile_fail/run.py: as it
// stands it registers; each case below gets its optional hook `note` wrong one way, which the
// checks of multigpu/frame/algo_hooks.cuh must refuse instead of reading the default.
// CASE misspelt_hook: "lists a hook" "H=gb::mg::hook::Note]"
// CASE unlisted_hook: "leaves out" "H=gb::mg::hook::Note]"
// CASE wrong_signature: "has not the signature" "H=gb::mg::hook::Note]"
// CASE not_a_hook: "holds something that is none of the hook:: tags"
// "A=gb::mg::CompileFailBarrier]"
#include <string>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

struct CompileFailBarrier {
  static constexpr std::string_view name = "test.multigpu.compile-fail";
  static constexpr std::string_view summary = "no barrier: a compile-time test.";
  struct Words {
    Word arrive;
  };
  struct Args {};
#if defined(GB_CASE_NOT_A_HOOK)
  using Hooks = HookList<hook::Note, Words>;
#elif !defined(GB_CASE_UNLISTED_HOOK)
  using Hooks = HookList<hook::Note>;
#endif

#if defined(GB_CASE_MISSPELT_HOOK)
  static std::string nte(const AlgoSetup&) {
    return "noted";
  }
#elif defined(GB_CASE_WRONG_SIGNATURE)
  static std::string note(const Point&) {
    return "noted";
  }
#else
  static std::string note(const AlgoSetup&) {
    return "noted";
  }
#endif

  __device__ static bool cross(const BarrierArgs&, const Args&, Word) {
    return true;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::CompileFailBarrier>)
