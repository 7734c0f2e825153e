// A device-side multi-GPU barrier algorithm as a file under kernels/multigpu/ holds it
// (kernels/multigpu/hierarchical.cu has the same optional member, all_count.cu the same need),
// for test_compile_fail.py: as it stands it registers; each case below gets it wrong one way,
// which the concept DeviceAlgorithm (multigpu/frame/algorithm.cuh) must refuse instead of reading
// a default.
// CASE wrong_signature: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmHostMembers"
// CASE summary_for_info: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE without_defaults: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmTraits"
// CASE args_not_made: "DeviceAlgorithm" "CompileFailBarrier" "AlgorithmHostMembers"
// CASE misspelt_need: "Needs" "no field" "peer_atomic"
// CASE need_as_member: "CompileFailBarrier" "'peer_atomics'" "Needs{.peer_atomics = true}"
// CASE misspelt_note: "CompileFailBarrier" "'notes', which the frame never reads" "'note'"
// CASE misspelt_template_member: "CompileFailBarrier" "'feasible'" "'infeasible'"
// CASE axes_as_member: "CompileFailBarrier" "'axes', which the frame never reads" "info's .axes"
// CASE final_type: "DeviceAlgorithm" "CompileFailBarrier" "ReadsEveryMember"
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"

namespace gb::mg {

#if defined(GB_CASE_WITHOUT_DEFAULTS)
struct CompileFailBarrier {
#elif defined(GB_CASE_MISSPELT_NEED)
struct CompileFailBarrier : Algorithm<Needs{.peer_atomic = true}> {
#elif defined(GB_CASE_NEED_AS_MEMBER)
struct CompileFailBarrier : Algorithm<> {
  static constexpr bool peer_atomics = true;
#elif defined(GB_CASE_FINAL_TYPE)
struct CompileFailBarrier final : Algorithm<Needs{.peer_atomics = true}> {
#else
struct CompileFailBarrier : Algorithm<Needs{.peer_atomics = true}> {
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
#elif defined(GB_CASE_MISSPELT_NOTE)
  static std::string notes(const AlgoSetup&) {
    return "noted";
  }
#else
  static std::string note(const AlgoSetup&) {
    return "noted";
  }
#endif

#if defined(GB_CASE_MISSPELT_TEMPLATE_MEMBER)
  template <class Pt>
  static std::string feasible(const Pt&) {
    return "never";
  }
#else
  template <class Pt>
  static std::string infeasible(const Pt&) {
    return "";
  }
#endif

#if defined(GB_CASE_AXES_AS_MEMBER)
  static std::vector<Axis> axes() {
    return {};
  }
#endif

  __device__ static bool cross(const BarrierArgs&, const Args&, Word) {
    return true;
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::CompileFailBarrier>)
