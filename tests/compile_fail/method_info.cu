// A method's MethodInfo as a method file states it, for test_compile_fail.py: as it stands it
// registers; each case below misspells one field of the aggregates a method states its facts in
// with designated initializers (core/method.hpp: MethodInfo, TimedInstruction, Bound), which must
// not compile: no fact a method states can be lost to a default. A host method passes its info to
// Method's constructor, a frame's policy (kernels/<level>/detail/) holds it as `info`.
// CASE misspelt_field: "Method::Method" "matches the argument list"
// CASE misspelt_timed_field: "Method::Method" "matches the argument list"
// CASE misspelt_bound_field: "Method::Method" "matches the argument list"
// CASE misspelt_policy_field: "MethodInfo" "has no field" "descripton"
#include <vector>

#include "core/registry.hpp"

namespace gb {

class CompileFailHostMethod final : public Method {
 public:
  CompileFailHostMethod()
      : Method({.name = "test.host.compile-fail",
                .level = Level::host,
#if defined(GB_CASE_MISSPELT_FIELD)
                .descripton = "no barrier: a compile-time test",
#else
                .description = "no barrier: a compile-time test",
#endif
                .axes = {{"group_size", {2}}},
#if defined(GB_CASE_MISSPELT_TIMED_FIELD)
                .timed = {{.instrucion = "BAR.SYNC"}},
#else
                .timed = {{.instruction = "BAR.SYNC"}},
#endif
#if defined(GB_CASE_MISSPELT_BOUND_FIELD)
                .bounds = {{.metric = Metric::latency, .maximum = 1.0, .why = "a test"}}}) {
#else
                .bounds = {{.metric = Metric::latency, .max = 1.0, .why = "a test"}}}) {
#endif
  }
  std::vector<Measurement> measure(State&) override { return {}; }
};

// A frame's policy states the same aggregate.
struct CompileFailPolicy {
  static inline const MethodInfo info{.name = "test.policy.compile-fail",
#if defined(GB_CASE_MISSPELT_POLICY_FIELD)
                                      .descripton = "no barrier: a compile-time test"};
#else
                                      .description = "no barrier: a compile-time test"};
#endif
};

}  // namespace gb

GB_REGISTER_METHOD(gb::CompileFailHostMethod)
