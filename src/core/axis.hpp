// `--axis name=v1,v2|a:b:step` overrides and the cartesian expansion of a method's axes. A value
// of a categorical axis is a name (`ordering=release-acquire`, core/axis_glossary.hpp) or the
// method's own code for it; each method resolves a name to its code when its points are expanded.
// Where the command line or a sweep file is read, a value that no method (check_axis_values) or
// not every selected method (check_value_names) names is refused, so a method only ever reads
// codes its axis names (Point::choice).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"

namespace gb {

// The values as given: integers in decimal, names as written (a range is expanded to integers).
struct AxisOverride {
  std::string name;
  std::vector<std::string> values;
};

// Parses "threads_per_block=32,64" or "blocks_per_sm=1:32:*2" (geometric) or "x=1:9:2"
// (arithmetic, inclusive) or "ordering=release-acquire,0" (names and integers). Throws
// gb::UsageError naming the text and the expected forms.
AxisOverride parse_axis(std::string_view text);

// Whether `text` has the form of a value name: a lower-case letter, then lower-case letters,
// digits and '-'.
bool value_name_form(std::string_view text);

// The code of one given value on `axis`: an integer as it is on a numeric axis, a name or a named
// code on a categorical one. Throws gb::UsageError naming the axis, the value, `method` (when
// given) and the valid names with their codes.
long resolve_value(const Axis& axis, std::string_view value, std::string_view method = {});

// Every name of `override` resolved on `axis` of `method` (resolve_value), so that a name the
// method does not have is refused before anything runs.
void check_value_names(const AxisOverride& override, const Axis& axis, std::string_view method);

// The values an axis can mean for any method (threads_per_block 1..1024, group_size >= 1, ...;
// an axis not listed takes any value >= 0). A method may still skip a value within the range
// that its GPU or its own rules cannot run.
struct AxisRange {
  long lo, hi;
};
AxisRange axis_range(std::string_view name);
// Throws gb::UsageError naming the axis, the value and the range when a value is outside it, and
// for a name or a code that no method gives a value of the axis (core/axis_glossary.hpp).
void check_axis_values(const AxisOverride& axis);

// A point's config text ("ordering=0 word=64") as this version writes it: each integer value of
// an axis of `axes` that names its values replaced by the name ("ordering=release-acquire"), the
// rest as given. Configs of CSVs written before values had names thus key the same points as a
// run of today (--resume).
std::string named_config(std::string_view config, const std::vector<Axis>& axes);

// Every combination of the method's axes, the first axis varying slowest; an override replaces
// the default values of the axis with the same name. A categorical value carries its name.
std::vector<Point> expand_points(const std::vector<Axis>& axes,
                                 const std::vector<AxisOverride>& overrides);

}  // namespace gb
