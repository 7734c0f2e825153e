// What a clock-technique figure times (the clock()/SASS post's check, made for every method): the
// instruction that the code between the method's clock reads must hold for its figure to be what
// the method's name says, and where the sm_90 SASS of this build holds it. The table is committed
// with the code (timed_regions.cpp); tests/gpu/test_sass.py (timed_instructions) disassembles the
// build, finds every method's timed kernels and fails when a row of the table is not what the
// SASS holds, or when a clock-technique method has no row.
//
// The runner appends the answer to the note of every clock-technique figure, as a part of its own
// (after the method's parts, so a note still starts with the verification):
//   "not timed: compiled to no WARPSYNC on sm_90"   the instruction is not in the timed region
//   "unresolved: ..."                               no row covers the method or the GPU's
//                                                   architecture (only sm_90 SASS is checked)
// Reports give such figures no verdict.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/method.hpp"

namespace gb {

// Where the sm_90 SASS holds a row's instruction.
enum class TimedPath {
  timed,     // between the clock reads, on the path every run takes
  diverged,  // behind the divergence branch (BRA.DIV) of each operation, which the method's
             // group takes at run time: its members reach every operation from two branches
  absent,    // not between the clock reads: ptxas proved the group converged and emitted NOPs
};

struct TimedRegion {
  std::string_view method;
  std::string_view axis;  // "": every point of the method; else the points with axis == value
  long value;
  std::string_view instruction;  // an opcode prefix as `cuobjdump -sass` prints it
  TimedPath sm90;
};

std::span<const TimedRegion> timed_regions();

// The row for a point of a method, or nullptr.
const TimedRegion* timed_region_of(std::string_view method, const Point& point);

// The note part for a clock-technique figure of `method` at `point` on a GPU of compute
// capability `cc` (90 for 9.0): "" where the figure times its instruction.
std::string timed_region_note(std::string_view method, const Point& point, int cc);

}  // namespace gb
