#include "core/axis_glossary.hpp"

#include <algorithm>

#include "core/registry.hpp"

namespace gb {
namespace {

std::vector<GlossaryEntry> collect() {
  std::vector<GlossaryEntry> entries;
  for (const auto& m : Registry::instance().create_all())
    for (const Axis& a : m->axes())
      for (const ValueName& n : a.names) {
        const auto same = [&](const GlossaryEntry& e) {
          return e.axis == a.name && e.name == n.name;
        };
        auto it = std::find_if(entries.begin(), entries.end(), same);
        if (it == entries.end())
          it = entries.insert(entries.end(), {a.name, n.name, n.meaning, {}});
        if (std::find(it->codes.begin(), it->codes.end(), n.code) == it->codes.end())
          it->codes.push_back(n.code);
      }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const GlossaryEntry& x, const GlossaryEntry& y) { return x.axis < y.axis; });
  for (GlossaryEntry& e : entries) std::sort(e.codes.begin(), e.codes.end());
  return entries;
}

}  // namespace

const std::vector<GlossaryEntry>& glossary() {
  static const std::vector<GlossaryEntry> entries = collect();
  return entries;
}

std::string_view glossary_meaning(std::string_view axis, std::string_view name) {
  for (const GlossaryEntry& e : glossary())
    if (e.axis == axis && e.name == name) return e.meaning;
  return {};
}

bool categorical_axis(std::string_view axis) {
  return std::any_of(glossary().begin(), glossary().end(),
                     [&](const GlossaryEntry& e) { return e.axis == axis; });
}

bool named_code(std::string_view axis, long code) {
  return std::any_of(glossary().begin(), glossary().end(), [&](const GlossaryEntry& e) {
    return e.axis == axis && std::binary_search(e.codes.begin(), e.codes.end(), code);
  });
}

std::string value_names_text(std::string_view axis) {
  std::string text;
  for (const GlossaryEntry& e : glossary())
    if (e.axis == axis) text += (text.empty() ? "" : ", ") + std::string(e.name);
  return text;
}

}  // namespace gb
