// `gpubarrier schema`: the CSV schema as this executable writes it: the columns in order with the
// version that added each (io/row.hpp), the noisy-figure thresholds (core/noisy.hpp) and the
// statuses (core/method.hpp), and the names of categorical axis values: what each means
// (core/axis_glossary.hpp, from the methods) and which code each method reads for it, so that the
// tools read a config of names and one of the integers written before names alike; with --json
// also each method's timed instructions and physical bounds (MethodInfo), which the tools apply
// to rows written before the executable did. Its --json is what the Python tools read
// (gpubarrier_tools/data/schema.json).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/bound_json.hpp"
#include "app/commands.hpp"
#include "core/axis_glossary.hpp"
#include "core/bounds.hpp"
#include "core/method.hpp"
#include "core/noisy.hpp"
#include "core/oversubscription.hpp"
#include "core/registry.hpp"
#include "io/row.hpp"

namespace gb::cli {
namespace {

// Every status a row can have, in the order of the enum (to_string says "unknown" past its end).
std::vector<std::string> statuses() {
  std::vector<std::string> out;
  for (int s = 0;; ++s) {
    const std::string_view name = to_string(static_cast<Status>(s));
    if (name == "unknown") return out;
    out.emplace_back(name);
  }
}

// {axis: {name: meaning}}, in the glossary's order (the axes by name).
nlohmann::ordered_json glossary_json() {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const GlossaryEntry& e : glossary())
    out[std::string(e.axis)][std::string(e.name)] = std::string(e.meaning);
  return out;
}

// {method: {axis: {code: name}}} for every method with a categorical axis.
nlohmann::ordered_json value_names_json() {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& m : Registry::instance().create_all())
    for (const Axis& a : m->axes())
      for (const ValueName& n : a.names)
        out[std::string(m->name())][a.name][std::to_string(n.code)] = std::string(n.name);
  return out;
}

// {method: [{instruction, sm90, axis, value}]} for every method that states a timed instruction
// (MethodInfo::timed): what its clock figures must time, for the tools and the SASS test.
nlohmann::ordered_json timed_json() {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& m : Registry::instance().create_all())
    for (const TimedInstruction& t : m->info().timed)
      out[std::string(m->name())].push_back({{"instruction", t.instruction},
                                             {"sm90", to_string(t.sm90)},
                                             {"axis", t.axis},
                                             {"value", t.value}});
  return out;
}

// Every method's physical bounds: {"every method": [time_bounds()], method: [its own
// (MethodInfo::bounds)]} for the methods that state some.
nlohmann::ordered_json bounds_json() {
  nlohmann::ordered_json every = nlohmann::ordered_json::array();
  for (const Bound& b : time_bounds()) every.push_back(bound_json<nlohmann::ordered_json>(b));
  nlohmann::ordered_json out = {{"every method", every}};
  for (const auto& m : Registry::instance().create_all())
    for (const Bound& b : m->info().bounds)
      out[std::string(m->name())].push_back(bound_json<nlohmann::ordered_json>(b));
  return out;
}

nlohmann::ordered_json schema_json() {
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  const auto& names = Row::columns();
  const auto& since = Row::since();
  for (std::size_t i = 0; i < names.size(); ++i)
    columns.push_back({{"name", names[i]}, {"since", since[i]}});
  return {
      {"schema_version", kSchemaVersion},
      {"columns", columns},
      {"noisy",
       {{"cv", kNoisyCv}, {"budget_cv", kNoisyBudgetCv}, {"mean_median_gap", kNoisyMeanMedianGap}}},
      {"statuses", statuses()},
      {"glossary", glossary_json()},
      {"value_names", value_names_json()},
      {"timed", timed_json()},
      {"bounds", bounds_json()}};
}

void print_table() {
  std::printf("CSV schema version %d (results/SCHEMA.md describes every column)\n\n",
              kSchemaVersion);
  std::printf("%-20s %s\n", "column", "since");
  const auto& names = Row::columns();
  const auto& since = Row::since();
  for (std::size_t i = 0; i < names.size(); ++i)
    std::printf("%-20s v%d\n", names[i].c_str(), since[i]);
  std::printf("\nA figure is noisy (its status stays ok; its note says why) when:\n");
  std::printf("  its cv is above %g\n", kNoisyCv);
  std::printf("  its cv is above %g and its time budget ran out (stop = budget)\n", kNoisyBudgetCv);
  std::printf("  it is computed on means and its mean and median differ by more than %g%%\n",
              100 * kNoisyMeanMedianGap);
  std::printf(
      "  its spinning threads or ranks outnumber the CPUs they may run on (oversubscribed)\n");
  std::printf("  its spinning threads or ranks had less than %g of a CPU each while timed\n",
              kMinCpuShare);
  std::printf("  its point's loop_latency and latency are more than %gx apart\n", kNoisyLoopRatio);
  std::string all;
  for (const auto& s : statuses()) all += (all.empty() ? "" : ", ") + s;
  std::printf("\nStatuses: %s\n", all.c_str());
  std::printf(
      "\nNamed axis values (the config column writes these; each method's code for each: "
      "--json):\n");
  for (const GlossaryEntry& e : glossary())
    std::printf("  %-12s %-20s %s\n", std::string(e.axis).c_str(), std::string(e.name).c_str(),
                std::string(e.meaning).c_str());
}

}  // namespace

void add_schema_command(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand(
      "schema",
      "Print the CSV schema this executable writes: the columns in order with the schema version "
      "that added each, the thresholds that mark a figure noisy, the statuses and the named "
      "values of categorical axes (with each method's code for each). --json is what "
      "the Python tools read (gpubarrier_tools/data/schema.json is written from it)");
  cmd->add_flag("--json", global.json, "JSON output");
  cmd->callback([&global] {
    if (global.json)
      std::printf("%s\n", schema_json().dump(2).c_str());
    else
      print_table();
  });
}

}  // namespace gb::cli
