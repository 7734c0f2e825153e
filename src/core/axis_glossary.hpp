// The names of the values of categorical axes (ordering, variant, fault, ...) and what each
// means, one meaning per name on every method: `ordering=release-acquire` is the same ordering
// on multigpu.floor.signal as on the device barriers, whatever code each method reads for it.
// A method names its values in its Axis (core/method.hpp); test_axis_glossary holds every
// registered method to this table. `gpubarrier --json schema` states it for the tools.
#pragma once

#include <span>
#include <string_view>

namespace gb {

struct GlossaryEntry {
  std::string_view axis;
  std::string_view name;
  std::string_view meaning;  // one sentence
};

// Every value name, by axis.
std::span<const GlossaryEntry> glossary();

// What `name` means as a value of `axis`; empty when the glossary has no such value.
std::string_view glossary_meaning(std::string_view axis, std::string_view name);

// Whether `axis` is categorical (the glossary names values of it).
bool categorical_axis(std::string_view axis);

}  // namespace gb
