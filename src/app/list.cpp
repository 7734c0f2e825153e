// `gpubarrier list`: every method with its level, axes and whether it can run here (or why not).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <vector>

#include "app/bound_json.hpp"
#include "app/commands.hpp"
#include "app/context.hpp"
#include "core/registry.hpp"
#include "runtime/launcher.hpp"

namespace gb::cli {
namespace {

// The default values, a categorical one by its name.
std::string axes_text(const std::vector<Axis>& axes) {
  std::string s;
  for (const auto& a : axes) {
    s += (s.empty() ? "" : " ") + a.name + "=";
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      const std::string_view named = a.name_of(a.values[i]);
      s += (i ? "," : "") + (named.empty() ? std::to_string(a.values[i]) : std::string(named));
    }
  }
  return s.empty() ? "-" : s;
}

// {axis: [{code, name, meaning}]} of the method's categorical axes: every value it names.
nlohmann::json value_names_json(const std::vector<Axis>& axes) {
  nlohmann::json out = nlohmann::json::object();
  for (const Axis& a : axes)
    for (const ValueName& n : a.names)
      out[a.name].push_back({{"code", n.code}, {"name", n.name}, {"meaning", n.meaning}});
  return out;
}

// A method's physical bounds (Method::bounds), each as app/bound_json.hpp writes it.
nlohmann::json bounds_json(const std::vector<Bound>& bounds) {
  nlohmann::json out = nlohmann::json::array();
  for (const Bound& b : bounds) out.push_back(bound_json<nlohmann::json>(b));
  return out;
}

void list_methods(const GlobalOptions& global, const std::string& gpus) {
  const RunContext ctx = make_context(local_launch(), gpus);
  const auto methods = Registry::instance().create_all();
  nlohmann::json out = nlohmann::json::array();
  if (!global.json)
    std::printf("%-32s %-10s %-60s %s\n", "method", "level", "axes (defaults)", "usable here");
  for (const auto& m : methods) {
    const Usability u = m->usable(ctx);
    if (global.json) {
      nlohmann::json axes = nlohmann::json::object();
      const auto method_axes = m->axes();
      for (const auto& a : method_axes) axes[a.name] = a.values;
      out.push_back({{"name", m->name()},
                     {"level", to_string(m->level())},
                     {"description", m->description()},
                     {"axes", axes},
                     {"value_names", value_names_json(method_axes)},
                     {"bounds", bounds_json(m->bounds())},
                     {"usable", u.ok},
                     {"reason", u.reason}});
    } else {
      std::printf("%-32s %-10s %-60s %s\n", std::string(m->name()).c_str(),
                  std::string(to_string(m->level())).c_str(), axes_text(m->axes()).c_str(),
                  u.ok ? "yes" : ("no: " + u.reason).c_str());
    }
  }
  if (global.json) std::printf("%s\n", out.dump(2).c_str());
}

}  // namespace

void add_list_command(CLI::App& app, GlobalOptions& global) {
  auto* cmd =
      app.add_subcommand("list", "List every method: level, axes, and whether it can run here");
  auto gpus = std::make_shared<std::string>();
  cmd->add_option("--gpus", *gpus, "GPUs to judge usability against (default: all visible)");
  cmd->add_flag("--json", global.json, "JSON output");
  cmd->callback([&global, gpus] { list_methods(global, *gpus); });
}

}  // namespace gb::cli
