// `--axis name=v1,v2|a:b:step` overrides and the cartesian expansion of a method's axes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"

namespace gb {

struct AxisOverride {
  std::string name;
  std::vector<long> values;
};

// Parses "threads_per_block=32,64" or "blocks_per_sm=1:32:*2" (geometric) or "x=1:9:2"
// (arithmetic, inclusive). Throws gb::UsageError naming the text and the expected forms.
AxisOverride parse_axis(std::string_view text);

// Every combination of the method's axes, the first axis varying slowest; an override replaces
// the default values of the axis with the same name.
std::vector<Point> expand_points(const std::vector<Axis>& axes,
                                 const std::vector<AxisOverride>& overrides);

}  // namespace gb
