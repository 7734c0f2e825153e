// The parts of one point that the runner runs in turn (core/runner.hpp): whether it can run here,
// the check that the barrier waited, the timed runs. A test hook names the part it fails in
// (core/faults.hpp, GPUBARRIER_TEST_THROW=<part>:<member>).
#pragma once

#include <array>

#include "core/names.hpp"

namespace gb {

enum class PointPart {
  none,      // outside a point's parts
  feasible,  // Method::feasible
  verify,    // Method::verify
  measure,   // Method::measure
};

inline constexpr std::array<Named<PointPart>, 4> kPointPartNames{{
    {PointPart::none, ""},
    {PointPart::feasible, "feasible"},
    {PointPart::verify, "verify"},
    {PointPart::measure, "measure"},
}};
constexpr const auto& name_table(PointPart) {
  return kPointPartNames;
}

}  // namespace gb
