// The names of the values of categorical axes (ordering, variant, fault, ...) and what each
// means, as the registered methods state them (Axis::names, core/method.hpp): the core holds no
// name of its own, and a method with a new value names it in its own file. A name means one
// thing on every method that has it, whatever code each method reads for it (the unit test
// ValueNames.* holds the methods to that): `ordering=release-acquire` is the same ordering on
// multigpu.floor.signal as on the device barriers. `gpubarrier --json schema` states it for the
// tools.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gb {

struct GlossaryEntry {
  std::string axis;
  std::string_view name;
  std::string_view meaning;  // one sentence
  std::vector<long> codes;   // the codes the methods read for it, ascending
};

// Every value name of the registered methods: the axes in name order, each axis' names in the
// order the methods (by name) first give them.
const std::vector<GlossaryEntry>& glossary();

// What `name` means as a value of `axis`; empty when no method names such a value.
std::string_view glossary_meaning(std::string_view axis, std::string_view name);

// Whether `axis` is categorical (a method names values of it).
bool categorical_axis(std::string_view axis);

// Whether some method names `code` as a value of `axis`.
bool named_code(std::string_view axis, long code);

// "name1, name2, ..." of `axis`, in glossary order.
std::string value_names_text(std::string_view axis);

}  // namespace gb
