// A device-side multi-GPU barrier algorithm as a file under kernels/multigpu/ holds it
// (kernels/multigpu/hierarchical.cu has the same hook, all_count.cu the same need), for
// test_compile_fail.py: as it stands it registers; each case below gets it wrong one way, which
// the aggregate Traits or the concept DeviceAlgorithm (multigpu/frame/algorithm.cuh) must refuse
// instead of reading a default.
// CASE wrong_signature: "CompileFailBarrier" "cannot be used to initialize" "AlgoSetup"
// CASE summary_for_info: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE without_traits: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE without_base: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE args_not_made: "DeviceAlgorithm" "CompileFailBarrier" "MakesItsArgs"
// CASE misspelt_need: "Traits" "no field" "peer_atomic"
// CASE misspelt_hook: "Traits" "no field" "notes"
// CASE words_twice: "DeviceAlgorithm" "CompileFailBarrier" "SizesItsWords"
#include <cstddef>
#include <string>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

#if defined(GB_CASE_WITHOUT_BASE)
struct CompileFailBarrier {
  struct Args {};
#else
struct CompileFailBarrier : Algorithm {
#endif
#if defined(GB_CASE_SUMMARY_FOR_INFO)
  static inline const MethodInfo summary{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.multigpu.compile-fail",
      .description = "no barrier: a compile-time test."};
  struct Words {
    Word arrive;
  };
#if defined(GB_CASE_ARGS_NOT_MADE)
  struct Args {
    int rounds = 0;
  };
#endif

#if defined(GB_CASE_WRONG_SIGNATURE)
  static std::string note(const Point&) {
    return "noted";
  }
#else
  static std::string note(const AlgoSetup&) {
    return "noted";
  }
#endif
  static std::size_t words_bytes(int, int) {
    return sizeof(Words);
  }

#if defined(GB_CASE_MISSPELT_NEED)
  static constexpr Traits traits{.peer_atomic = true, .note = &note};
#elif defined(GB_CASE_MISSPELT_HOOK)
  static constexpr Traits traits{.peer_atomics = true, .notes = &note};
#elif defined(GB_CASE_WORDS_TWICE)
  static constexpr Traits traits{.peer_atomics = true, .note = &note, .words_bytes = &words_bytes};
#elif !defined(GB_CASE_WITHOUT_TRAITS)
  static constexpr Traits traits{.peer_atomics = true, .note = &note};
#endif

  __device__ static bool cross(const BarrierArgs&, const Args&, Word) {
    return true;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::CompileFailBarrier>)
