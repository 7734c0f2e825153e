// What a clock-technique figure times (the clock()/SASS post's check, made for every method): the
// instruction that the code between the method's clock reads must hold for its figure to be what
// the method's name says, and where the sm_90 SASS of this build holds it. A method states it in
// its MethodInfo (`.timed`, core/method.hpp) beside its name; `gpubarrier schema` states every
// method's, and tests/gpu/test_sass.py disassembles the build and fails when one is not what the
// SASS holds.
#pragma once

#include <string_view>

namespace gb {

// Where the sm_90 SASS holds the instruction.
enum class TimedPath {
  timed,     // between the clock reads, on the path every run takes
  diverged,  // behind the divergence branch (BRA.DIV) of each operation, which the method's
             // group takes at run time: its members reach every operation from two branches
  absent,    // not between the clock reads: ptxas proved the group converged and emitted NOPs
};

std::string_view to_string(TimedPath path);

// One timed instruction of a method: for every point (axis ""), or for the points whose `axis`
// has `value`.
struct TimedInstruction {
  std::string_view instruction;  // an opcode prefix as `cuobjdump -sass` prints it
  TimedPath sm90 = TimedPath::timed;
  std::string_view axis = {};
  long value = 0;
};

}  // namespace gb
