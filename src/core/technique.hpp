// How a figure was obtained: the CSV's `technique` column (results/SCHEMA.md, README.md's
// "Techniques"). The core and the methods set and compare the enum; io/ writes its name.
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb {

enum class Technique {
  none,          // no figure was obtained (a timeout before any sample): the column stays empty
  clock,         // clock64() around a chain inside one SM (Wong; the study's section 9.3)
  differential,  // whole kernels at two repetition counts (the study's Eqs. 7-8)
  fusion,        // launch overhead from fused and split __nanosleep kernels (the study's Eq. 6)
  host_loop,     // the steady clock around each host-side step
  event,         // CUDA events around each launch
  globaltimer,   // %globaltimer stamps read on two GPUs
  check,         // a count of the check's failures, not a time
};

inline constexpr std::array<Named<Technique>, 8> kTechniqueNames{{
    {Technique::none, ""},
    {Technique::clock, "clock"},
    {Technique::differential, "differential"},
    {Technique::fusion, "fusion"},
    {Technique::host_loop, "host-loop"},
    {Technique::event, "event"},
    {Technique::globaltimer, "globaltimer"},
    {Technique::check, "check"},
}};
constexpr const auto& name_table(Technique) {
  return kTechniqueNames;
}

}  // namespace gb
