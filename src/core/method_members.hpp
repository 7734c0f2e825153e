// What GB_REGISTER_METHOD checks of a registered type beyond being a Method: that it declares no
// member under a name close to one of Method's optional virtual functions (axes, requirements,
// usable, feasible, verify, bounds) or to a trait of another level (summary, kName). Such a
// member compiles, overrides nothing and is never called, so the method would silently keep
// Method's default: no axes, no requirements, every point feasible, no check, no bounds of its
// own. An override spelt right and marked `override` needs no help; this catches the function
// written without it under a near name. C++20 cannot list a class's members, so the check knows
// the likely names only; a member it names is refused with the name the runner calls.
#pragma once

#include <type_traits>

#include "core/method.hpp"

namespace gb {

// GB_METHOD_NOT_READ(member, what the runner calls instead): a static_assert that M declares no
// such member (one of any kind: function, data or type, whatever its signature).
#define GB_METHOD_NOT_READ(member, instead)                           \
  static_assert(                                                      \
      !requires { &M::member; } && !requires { typename M::member; }, \
      "the method declares '" #member "', which the runner never calls: it calls " instead)

template <class M>
struct MethodNamesNoneReads {
  static_assert(std::is_base_of_v<Method, M>, "a registered method derives from gb::Method");
  GB_METHOD_NOT_READ(axis, "axes()");
  GB_METHOD_NOT_READ(requirement, "requirements()");
  GB_METHOD_NOT_READ(usability, "usable(ctx)");
  GB_METHOD_NOT_READ(feasibility, "feasible(ctx, point)");
  GB_METHOD_NOT_READ(feasable, "feasible(ctx, point)");
  GB_METHOD_NOT_READ(verification, "verify(state)");
  GB_METHOD_NOT_READ(bound, "bounds()");
  GB_METHOD_NOT_READ(summary, "description()");
  GB_METHOD_NOT_READ(kName, "name()");
  GB_METHOD_NOT_READ(kDescription, "description()");
  static constexpr bool ok = true;
};

#undef GB_METHOD_NOT_READ

}  // namespace gb
