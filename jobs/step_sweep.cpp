#include "jobs/step_sweep.hpp"

#include <cstdio>

#include "core/glob.hpp"
#include "jobs/step_command.hpp"
#include "jobs/text.hpp"

namespace gb::jobs {
namespace {

// YAML double-quoted scalar: method names and axis specs hold no quotes or backslashes, but a
// sweep's name might.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return buf;
}

}  // namespace

std::string render_step_sweep(const Plan& plan, const Step& step) {
  std::string out = "# Step " + step.id + " of `" + plan.request.command_line + "`:\n# " +
                    describe_step(step, plan.select_gpus) + ".\n# The entries of " +
                    plan.sweep_path +
                    " that run in this step; gpu_count is left to the step's GPUs (all given).\n";
  out += "name: " + quoted(step.sweep.name.empty() ? step.id : step.sweep.name) + "\n";
  if (step.sweep.samples) out += "samples: " + std::to_string(*step.sweep.samples) + "\n";
  if (step.sweep.time_budget_s) out += "time_budget: " + number(*step.sweep.time_budget_s) + "\n";
  if (step.sweep.rse_target) out += "rse_target: " + number(*step.sweep.rse_target) + "\n";
  if (step.sweep.point_timeout_s)
    out += "point_timeout: " + number(*step.sweep.point_timeout_s) + "\n";
  out += "runs:\n";
  for (const auto& entry : step.sweep.runs) {
    std::vector<std::string> methods;
    for (const auto& m : split_list(entry.methods)) methods.push_back(quoted(m));
    out += "  - methods: [" + join(methods, ", ") + "]\n";
    if (entry.axes.empty()) continue;
    out += "    axes:\n";
    for (const auto& spec : entry.axes) {
      const auto eq = spec.find('=');
      out += "      " + spec.substr(0, eq) + ": " + quoted(spec.substr(eq + 1)) + "\n";
    }
  }
  return out;
}

}  // namespace gb::jobs
