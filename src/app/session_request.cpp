#include "app/session_request.hpp"

#include <algorithm>
#include <cstdint>

#include "app/session_options.hpp"
#include "core/axis.hpp"
#include "core/glob.hpp"
#include "core/registry.hpp"
#include "errors/errors.hpp"
#include "io/sweep_file.hpp"

namespace gb::cli {
namespace {

std::vector<Method*> pick(const std::vector<std::unique_ptr<Method>>& all,
                          const std::string& globs) {
  std::vector<std::string> names;
  for (const auto& m : all) names.emplace_back(m->name());
  const auto chosen = select_names(globs, names);
  std::vector<Method*> picked;
  for (const auto& m : all)
    if (std::find(chosen.begin(), chosen.end(), m->name()) != chosen.end())
      picked.push_back(m.get());
  return picked;
}

std::vector<std::string> axis_names(const std::vector<Method*>& methods) {
  std::vector<std::string> known;
  for (Method* m : methods)
    for (const auto& a : m->axes())
      if (std::find(known.begin(), known.end(), a.name) == known.end()) known.push_back(a.name);
  return known;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& k : names) list += (list.empty() ? "" : ", ") + k;
  return list.empty() ? "none" : list;
}

[[noreturn]] void no_such_axis(const std::string& name, const std::vector<std::string>& known) {
  const std::string near = closest_word(name, known);
  throw UsageError("--axis " + name + ": no selected method has this axis" +
                   (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                   "; their axes: " + joined(known));
}

// One --axis text: parsed, of an axis one of `methods` has, with values that every one of them
// that has the axis names (a categorical axis: its names and their codes) and values the axis can
// mean.
AxisOverride checked_override(const std::string& text, const std::vector<Method*>& methods) {
  AxisOverride o = parse_axis(text);
  const auto known = axis_names(methods);
  if (std::find(known.begin(), known.end(), o.name) == known.end()) no_such_axis(o.name, known);
  for (const Method* m : methods)
    for (const Axis& a : m->axes())
      if (a.name == o.name && a.categorical()) check_value_names(o, a, m->name());
  check_axis_values(o);
  return o;
}

// A run's own --axis (or a sweep entry's axes): every one must belong to a selected method.
// An axis given twice would keep only its last values: refused, naming both.
void refuse_repeated_axes(const std::vector<std::string>& texts) {
  for (std::size_t i = 0; i < texts.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (parse_axis(texts[i]).name == parse_axis(texts[j]).name)
        throw UsageError("--axis " + parse_axis(texts[i]).name + " is given twice ('" + texts[j] +
                         "' and '" + texts[i] + "'): give each axis once, with all its values " +
                         "(e.g. name=1,2,4)");
}

std::vector<AxisOverride> parse_overrides(const std::vector<std::string>& texts,
                                          const std::vector<Method*>& methods) {
  std::vector<AxisOverride> overrides;
  for (const auto& t : texts) overrides.push_back(checked_override(t, methods));
  refuse_repeated_axes(texts);
  return overrides;
}

}  // namespace

std::vector<PlanSpec> specs_of(const SweepFile& sweep) {
  std::vector<PlanSpec> specs;
  for (const auto& entry : sweep.runs) specs.push_back({entry.methods, entry.axes});
  return specs;
}

SessionArgs with_file_defaults(SessionArgs args, const SweepFile& sweep, const GivenFlags& given) {
  if (sweep.samples && !given.samples) args.options.samples = *sweep.samples;
  if (sweep.time_budget_s && !given.time_budget) args.options.time_budget_s = *sweep.time_budget_s;
  if (sweep.rse_target && !given.rse_target) args.options.rse_target = *sweep.rse_target;
  if (sweep.point_timeout_s && !given.point_timeout) args.point_timeout_s = *sweep.point_timeout_s;
  return args;
}

std::vector<RunPlan> make_plans(const std::vector<std::unique_ptr<Method>>& all,
                                const std::vector<PlanSpec>& specs) {
  std::vector<RunPlan> plans;
  for (const auto& spec : specs) {
    RunPlan plan;
    plan.methods = pick(all, spec.methods);
    plan.overrides = parse_overrides(spec.axes, plan.methods);
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::vector<RunPlan> narrowed(std::vector<RunPlan> plans, const Narrowing& narrowing) {
  if (!narrowing.methods.empty()) {
    std::vector<std::string> names;
    for (const auto& plan : plans)
      for (Method* m : plan.methods) names.emplace_back(m->name());
    const auto keep = select_names(narrowing.methods, names);  // refuses a glob matching none
    for (auto& plan : plans)
      std::erase_if(plan.methods, [&](Method* m) {
        return std::find(keep.begin(), keep.end(), m->name()) == keep.end();
      });
    std::erase_if(plans, [](const RunPlan& p) { return p.methods.empty(); });
  }
  std::vector<Method*> all_methods;
  for (const auto& plan : plans)
    all_methods.insert(all_methods.end(), plan.methods.begin(), plan.methods.end());
  refuse_repeated_axes(narrowing.axes);
  for (const auto& text : narrowing.axes) {
    const AxisOverride o = checked_override(text, all_methods);
    for (auto& plan : plans) {
      const auto mine = axis_names(plan.methods);
      if (std::find(mine.begin(), mine.end(), o.name) != mine.end()) plan.overrides.push_back(o);
    }
  }
  return plans;
}

void check_point_count(const std::vector<RunPlan>& plans, long limit) {
  std::size_t total = 0;
  std::string largest;
  std::size_t largest_n = 0;
  for (const auto& plan : plans)
    for (const Method* m : plan.methods) {
      const std::size_t n = count_points(m->axes(), plan.overrides);
      total = total > SIZE_MAX - n ? SIZE_MAX : total + n;
      if (n > largest_n) largest_n = n, largest = std::string(m->name());
    }
  if (total <= static_cast<std::size_t>(limit)) return;
  throw UsageError("this run asks for " +
                   (total == SIZE_MAX ? std::string("more than 10^18") : std::to_string(total)) +
                   " points (the most for one method: " + largest + ", " +
                   std::to_string(largest_n) + "), over --point-limit " + std::to_string(limit) +
                   ": give fewer axis values, or raise --point-limit if you mean it");
}

void check_point_limit(const std::vector<PlanSpec>& specs, long limit) {
  const auto all = Registry::instance().create_all();
  check_point_count(make_plans(all, specs), limit);
}

Request read_request(const SessionArgs& given, const SpecReader& read, const Narrowing& narrowing,
                     const std::vector<std::unique_ptr<Method>>& all) {
  Request request{given, {}, {}};
  try {
    const Asked asked = read(given);
    request.args = asked.args;
    validate_options(request.args.options);
    validate_session(request.args);
    request.plans = narrowed(make_plans(all, asked.specs), narrowing);
    check_point_count(request.plans, request.args.point_limit);
  } catch (const UsageError& e) {
    request.mistake = e.what();
  }
  return request;
}

std::vector<DoneEntry> named_history(std::vector<DoneEntry> done,
                                     const std::vector<RunPlan>& plans) {
  for (DoneEntry& e : done)
    for (const RunPlan& plan : plans)
      for (const Method* m : plan.methods)
        if (m->name() == e.key.method) e.key.config = named_config(e.key.config, m->axes());
  return done;
}

}  // namespace gb::cli
