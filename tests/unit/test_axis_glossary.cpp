// Every categorical value a method names is in the glossary (core/axis_glossary.hpp), with one
// meaning per name: a method cannot give a name a meaning of its own, nor leave a value of a
// categorical axis unnamed.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/axis.hpp"
#include "core/axis_glossary.hpp"
#include "core/registry.hpp"

using namespace gb;

TEST(AxisGlossary, OneMeaningPerName) {
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const GlossaryEntry& e : glossary()) {
    EXPECT_TRUE(seen.insert({e.axis, e.name}).second)
        << e.axis << "=" << e.name << " has two meanings";
    EXPECT_TRUE(value_name_form(e.name)) << e.axis << "=" << e.name << " is no value name";
    EXPECT_FALSE(e.meaning.empty()) << e.axis << "=" << e.name;
    EXPECT_EQ(e.meaning.find('\n'), std::string_view::npos) << e.axis << "=" << e.name;
  }
}

TEST(AxisGlossary, EveryMethodNameIsInIt) {
  std::set<std::pair<std::string, std::string>> used;
  for (const auto& m : Registry::instance().create_all())
    for (const Axis& a : m->axes()) {
      std::map<long, std::string_view> by_code;
      std::set<std::string_view> names;
      for (const ValueName& n : a.names) {
        EXPECT_FALSE(glossary_meaning(a.name, n.name).empty())
            << m->name() << ": " << a.name << "=" << n.name << " is not in core/axis_glossary.cpp";
        EXPECT_TRUE(by_code.emplace(n.code, n.name).second)
            << m->name() << ": " << a.name << " code " << n.code << " has two names";
        EXPECT_TRUE(names.insert(n.name).second)
            << m->name() << ": " << a.name << "=" << n.name << " names two codes";
        used.emplace(a.name, n.name);
      }
      // A categorical axis names every value: its defaults at least.
      if (categorical_axis(a.name))
        for (long v : a.values)
          EXPECT_FALSE(a.name_of(v).empty())
              << m->name() << ": " << a.name << "=" << v << " has no name";
      else
        EXPECT_TRUE(a.names.empty()) << m->name() << ": " << a.name << " is not in the glossary";
    }
  // And the glossary holds no name that no method uses.
  for (const GlossaryEntry& e : glossary())
    EXPECT_TRUE(used.contains({std::string(e.axis), std::string(e.name)}))
        << e.axis << "=" << e.name << " is named by no method";
}

// The pairs tools/floor.py joins: a barrier's ordering and the floor signal of the same name.
TEST(AxisGlossary, FloorSignalSharesTheBarriersOrderings) {
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
