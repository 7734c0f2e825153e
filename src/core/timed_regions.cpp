#include "core/timed_regions.hpp"

namespace gb {

std::string timed_region_note(const Method& method, const Point& point, int cc) {
  const TimedInstruction* t = method.timed_at(point);
  if (!t) return "unresolved: no SASS check names the instruction this figure times";
  if (cc != 90)
    return "unresolved: the timed region's SASS is checked for sm_90 only, this GPU is sm_" +
           std::to_string(cc);
  if (t->sm90 == TimedPath::absent)
    return "not timed: compiled to no " + std::string(t->instruction) + " on sm_90";
  return {};
}

}  // namespace gb
