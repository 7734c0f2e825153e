// A device-side multi-GPU barrier algorithm as a file under kernels/multigpu/ holds it
// (kernels/multigpu/hierarchical.cu has the same optional member), for tests/compile_fail/run.py:
// as it stands it registers; each case below gets it wrong one way, which the concept
// DeviceAlgorithm (multigpu/frame/algorithm.cuh) must refuse instead of reading a default.
// CASE wrong_signature: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmHostMembers"
// CASE summary_for_description: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE without_defaults: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE args_not_made: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmHostMembers"
#include <string>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

#if defined(GB_CASE_WITHOUT_DEFAULTS)
struct CompileFailBarrier {
#else
struct CompileFailBarrier : Algorithm {
#endif
  static constexpr std::string_view name = "test.multigpu.compile-fail";
#if defined(GB_CASE_SUMMARY_FOR_DESCRIPTION)
  static constexpr std::string_view summary = "no barrier: a compile-time test.";
#else
  static constexpr std::string_view description = "no barrier: a compile-time test.";
#endif
  struct Words {
    Word arrive;
  };
#if defined(GB_CASE_WITHOUT_DEFAULTS)
  struct Args {};
#elif defined(GB_CASE_ARGS_NOT_MADE)
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

  __device__ static bool cross(const BarrierArgs&, const Args&, Word) {
    return true;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::CompileFailBarrier>)
