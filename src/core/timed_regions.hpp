// The note part of a clock-technique figure that says whether its timed region holds the
// instruction the method claims to time (MethodInfo::timed, core/timed_instruction.hpp). The
// runner appends it to the note of every clock-technique figure, as a part of its own (after the
// method's parts, so a note still starts with the verification):
//   "not timed: compiled to no WARPSYNC on sm_90"   the instruction is not in the timed region
//   "unresolved: ..."                               the method states no timed instruction for
//                                                   the point, or the GPU's architecture is not
//                                                   sm_90 (only sm_90 SASS is checked)
// Reports give such figures no verdict.
#pragma once

#include <string>

#include "core/method.hpp"

namespace gb {

// The note part for a clock-technique figure of `method` at `point` on a GPU of compute
// capability `cc` (90 for 9.0): "" where the figure times its instruction.
std::string timed_region_note(const Method& method, const Point& point, int cc);

}  // namespace gb
