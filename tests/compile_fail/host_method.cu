// A host-level method as a file under src/methods/host/ holds it, for test_compile_fail.py:
// as it stands it registers; each case below gives one optional member a near name, which would
// compile, override nothing and leave Method's default in place, and GB_REGISTER_METHOD must refuse
// it (core/method_members.hpp), naming the member and what the runner calls instead.
// CASE misspelt_axes: "'axis'" "axes()"
// CASE misspelt_feasible: "'feasable'" "feasible(ctx, point)"
// CASE misspelt_bounds: "'bound'" "bounds()"
// CASE k_prefixed_name: "'kName'" "name()"
#include <string_view>
#include <vector>

#include "core/registry.hpp"

namespace gb {

class CompileFailHostMethod final : public Method {
 public:
  std::string_view name() const override { return "test.host.compile-fail"; }
  Level level() const override { return Level::host; }
  std::string_view description() const override { return "no barrier: a compile-time test"; }
#if defined(GB_CASE_MISSPELT_AXES)
  std::vector<Axis> axis() const {
    return {{ "group_size", { 2 } }};
  }
#else
  std::vector<Axis> axes() const override {
    return {{"group_size", {2}}};
  }
#endif
#if defined(GB_CASE_MISSPELT_FEASIBLE)
  Usability feasable(const RunContext&, const Point&) const {
    return Usability::yes();
  }
#endif
#if defined(GB_CASE_MISSPELT_BOUNDS)
  std::vector<Bound> bound() const {
    return Method::bounds();
  }
#endif
#if defined(GB_CASE_K_PREFIXED_NAME)
  static constexpr std::string_view kName = "test.host.compile-fail";
#endif
  std::vector<Measurement> measure(State&) override {
    return {};
  }
};

}  // namespace gb

GB_REGISTER_METHOD(gb::CompileFailHostMethod)
