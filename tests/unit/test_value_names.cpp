// The value names of categorical axes live with the methods that own them (Axis::names); the
// core's glossary (core/axis_glossary.hpp) is only what the registered methods state. Read
// through the Registry, they must agree: one meaning per name on every method that has it, one
// name per code and one code per name within an axis, every default value named, and an axis
// categorical on every method that has it or on none.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/axis.hpp"
#include "core/axis_glossary.hpp"
#include "core/registry.hpp"

using namespace gb;

namespace {

// (axis, name) -> (meaning, the first method that gave it).
using Meanings = std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>>;

}  // namespace

TEST(ValueNames, OneMeaningPerNameAcrossMethods) {
  Meanings seen;
  std::map<std::string, std::string> categorical;  // axis -> a method with names for it
  std::map<std::string, std::string> numeric;      // axis -> a method without
  for (const auto& m : Registry::instance().create_all())
    for (const Axis& a : m->axes()) {
      (a.categorical() ? categorical : numeric).emplace(a.name, m->name());
      std::set<long> codes;
      std::set<std::string_view> names;
      for (const ValueName& n : a.names) {
        const std::string where =
            std::string(m->name()) + ": " + a.name + "=" + std::string(n.name);
        EXPECT_TRUE(value_name_form(n.name)) << where << " is no value name";
        EXPECT_FALSE(n.meaning.empty()) << where << " says nothing of what it means";
        EXPECT_EQ(n.meaning.find('\n'), std::string_view::npos) << where;
        EXPECT_TRUE(codes.insert(n.code).second) << where << ": code " << n.code << " named twice";
        EXPECT_TRUE(names.insert(n.name).second) << where << " names two codes";
        const auto [it, first] =
            seen.emplace(std::pair{a.name, std::string(n.name)},
                         std::pair{std::string(n.meaning), std::string(m->name())});
        EXPECT_TRUE(first || it->second.first == n.meaning)
            << where << " means \"" << n.meaning << "\", but on " << it->second.second
            << " it means \"" << it->second.first << "\"";
      }
      for (long v : a.values)
        if (a.categorical())
          EXPECT_FALSE(a.name_of(v).empty())
              << m->name() << ": " << a.name << "=" << v << " is a default without a name";
    }
  for (const auto& [axis, method] : categorical)
    EXPECT_FALSE(numeric.contains(axis))
        << axis << " names its values on " << method << " but not on " << numeric[axis];
  // The glossary is exactly what the methods say.
  std::size_t entries = 0;
  for (const GlossaryEntry& e : glossary()) {
    ++entries;
    const auto it = seen.find({e.axis, std::string(e.name)});
    ASSERT_NE(it, seen.end()) << e.axis << "=" << e.name << " is named by no method";
    EXPECT_EQ(e.meaning, it->second.first);
  }
  EXPECT_EQ(entries, seen.size());
}

// The pairs gpubarrier_tools/analysis/floor.py joins: a barrier's ordering and the floor signal of the same name.
TEST(ValueNames, FloorSignalSharesTheBarriersOrderings) {
  std::map<std::string, std::set<std::string_view>> orderings;
  for (const auto& m : Registry::instance().create_all())
    for (const Axis& a : m->axes())
      if (a.name == "ordering")
        for (const ValueName& n : a.names) orderings[std::string(m->name())].insert(n.name);
  ASSERT_TRUE(orderings.contains("multigpu.floor.signal"));
  ASSERT_TRUE(orderings.contains("multigpu.device.push"));
  for (std::string_view name : orderings["multigpu.device.push"])
    EXPECT_TRUE(orderings["multigpu.floor.signal"].contains(name)) << name;
}

// What the command line and the sweep file check against: a code named by some method.
TEST(ValueNames, GlossaryGivesTheCodesOfEachName) {
  EXPECT_TRUE(categorical_axis("ordering"));
  EXPECT_FALSE(categorical_axis("threads_per_block"));
  EXPECT_TRUE(named_code("part", 3));
  EXPECT_FALSE(named_code("part", 4));
  EXPECT_NE(value_names_text("part").find("gather-send"), std::string::npos);
  EXPECT_FALSE(glossary_meaning("ordering", "release-acquire").empty());
}
