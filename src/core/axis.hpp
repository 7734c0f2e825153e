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

// The values an axis can mean for any method (threads_per_block 1..1024, group_size >= 1, ...;
// an axis not listed takes any value >= 0). A method may still skip a value within the range
// that its GPU or its own rules cannot run.
struct AxisRange {
  long lo, hi;
};
AxisRange axis_range(std::string_view name);
// Throws gb::UsageError naming the axis, the value and the range when a value is outside it.
void check_axis_values(const AxisOverride& axis);

// Every combination of the method's axes, the first axis varying slowest; an override replaces
// the default values of the axis with the same name.
std::vector<Point> expand_points(const std::vector<Axis>& axes,
                                 const std::vector<AxisOverride>& overrides);

}  // namespace gb
