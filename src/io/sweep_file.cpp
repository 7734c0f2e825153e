#include "io/sweep_file.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>

#include "core/axis.hpp"
#include "core/glob.hpp"
#include "core/launch_mode.hpp"
#include "core/setting_ranges.hpp"
#include "errors/errors.hpp"
#include "io/config_limits.hpp"
#include "io/yaml_checks.hpp"

namespace gb {
namespace {

[[noreturn]] void fail(const std::string& source, const YAML::Node& node, const std::string& what) {
  const YAML::Mark m = node.Mark();
  throw ParseError(source, m.line + 1, m.column + 1, what);
}

SweepMark mark_of(const YAML::Node& node) {
  const YAML::Mark m = node.Mark();
  return {m.line + 1, m.column + 1};
}

// "; did you mean 'axes'?" when a known key is close enough to be the intended one.
std::string hint(const std::string& word, const std::vector<std::string>& known) {
  const std::string best = closest_word(word, known);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

// `key`, when given, names the value in the error ("samples: expected an integer").
template <typename T>
T scalar(const std::string& source, const YAML::Node& node, const char* what,
         const std::string& key = {}) {
  const std::string prefix = key.empty() ? std::string() : key + ": ";
  if (!node.IsScalar()) fail(source, node, prefix + "expected " + what);
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    fail(source, node, prefix + "expected " + what + ", got '" + node.Scalar() + "'");
  }
}

// A number within `range` (core/setting_ranges.hpp): the command line's rule for the same
// setting, refused here with the file's line and column.
template <typename T>
T in_range(const std::string& source, const std::pair<YAML::Node, YAML::Node>& kv,
           const SettingRange& range) {
  const std::string key = kv.first.Scalar();
  // NaN lies in no range: its violation is the whole expectation, bounds included.
  const std::string expected = range_violation(range, std::nan(""));
  const auto refuse = [&] {
    fail(source, kv.second, key + ": " + expected + ", got '" + kv.second.Scalar() + "'");
  };
  if (!kv.second.IsScalar()) fail(source, kv.second, key + ": " + expected);
  T v{};
  try {
    v = kv.second.as<T>();
  } catch (const YAML::Exception&) {
    refuse();
  }
  if (!range_violation(range, static_cast<double>(v)).empty()) refuse();
  return v;
}

std::string join_list(const std::string& source, const YAML::Node& node, const char* what) {
  if (node.IsScalar()) return node.Scalar();
  if (!node.IsSequence() || node.size() == 0) fail(source, node, std::string("expected ") + what);
  std::string out;
  for (const auto& item : node) {
    if (!out.empty()) out += ',';
    out += scalar<std::string>(source, item, what);
  }
  return out;
}

// A refusal of parse_axis (core/axis.hpp) in the sweep file's own terms: the axis' key and
// value instead of the command line's `--axis name=values`, and the forms a file writes.
std::string in_file_terms(std::string message, const std::string& spec, const std::string& name) {
  const std::string value = spec.substr(name.size() + 1);
  const auto replace = [&message](const std::string& from, const std::string& to) {
    if (const auto at = message.find(from); at != std::string::npos)
      message.replace(at, from.size(), to);
  };
  replace("malformed --axis '" + spec + "'", name + ": '" + value + "' is malformed");
  replace("--axis '" + spec + "'", name + ": '" + value + "'");
  if (const auto at = message.find("expected name="); at != std::string::npos)
    message = message.substr(0, at) +
              "expected a list of integers or value names ([1, 2, 4]) or a range string "
              "('first:last', 'first:last:step' or 'first:last:*factor', e.g. '1:32:*2')";
  return message;
}

// "name=1,2,4" from a list of integers, or "name=<spec>" from a range string like "1:32:*2".
std::string axis_spec(const std::string& source, const std::pair<YAML::Node, YAML::Node>& axis) {
  const std::string name = axis.first.Scalar();
  if (axis.second.IsScalar()) {
    const std::string spec = name + "=" + axis.second.Scalar();
    try {
      // A malformed range or a value no method can mean is reported here, with its line.
      check_axis_values(parse_axis(spec));
    } catch (const UsageError& e) {
      fail(source, axis.second, in_file_terms(e.what(), spec, name));
    }
    return spec;
  }
  if (!axis.second.IsSequence() || axis.second.size() == 0)
    fail(source, axis.second,
         "expected a list of integers or value names, or a range string, for axis " + name);
  std::string values;
  for (const auto& v : axis.second) {
    if (!values.empty()) values += ',';
    const std::string value = scalar<std::string>(source, v, "an integer or a value name");
    try {
      check_axis_values(parse_axis(name + "=" + value));
    } catch (const UsageError& e) {
      fail(source, v, in_file_terms(e.what(), name + "=" + value, name));
    }
    values += value;
  }
  return name + "=" + values;
}

// `gpu_count: all` is recorded in the entry instead of becoming an axis spec.
void parse_axes(const std::string& source, const YAML::Node& node, SweepEntry& e) {
  if (!node.IsMap()) fail(source, node, "expected a map axis_name: values");
  for (const auto& axis : node) {
    const bool all = axis.second.IsScalar() && axis.second.Scalar() == "all";
    if (all && axis.first.Scalar() == kGpuCountAxis) {
      e.all_gpu_counts = mark_of(axis.first);
      continue;
    }
    if (all)
      fail(source, axis.second,
           axis.first.Scalar() + ": 'all' is only for gpu_count (every GPU count of a node)");
    e.axes.push_back(axis_spec(source, axis));
    e.axis_marks.push_back(mark_of(axis.first));
  }
}

SweepEntry parse_entry(const std::string& source, const YAML::Node& node, std::size_t index) {
  if (!node.IsMap()) fail(source, node, "expected a run entry (a map with 'methods' and 'axes')");
  SweepEntry e;
  for (const auto& kv : node) {
    const auto key = kv.first.Scalar();
    if (key == "methods") {
      e.methods = join_list(source, kv.second, "a method glob or a list of globs");
      e.methods_mark = mark_of(kv.second);
    } else if (key == "axes") {
      parse_axes(source, kv.second, e);
    } else {
      fail(source, kv.first,
           "runs[" + std::to_string(index) + "]." + key + ": unknown key '" + key +
               "' in a run entry (expected methods, axes)" + hint(key, {"methods", "axes"}));
    }
  }
  if (e.methods.empty()) fail(source, node, "run entry has no 'methods'");
  return e;
}

}  // namespace

SweepFile parse_sweep_text(const std::string& text, const std::string& source) {
  check_config_limits(text, source);  // before yaml-cpp: size and nesting
  const YAML::Node root = load_yaml(text, source);
  if (!root.IsMap()) fail(source, root, "expected a map with 'runs' (and optional name, samples)");
  SweepFile sweep;
  sweep.source = source;
  for (const auto& kv : root) {
    const auto key = kv.first.Scalar();
    if (key == "name")
      sweep.name = scalar<std::string>(source, kv.second, "a name", key);
    else if (key == "samples")
      sweep.samples = in_range<int>(source, kv, kSamplesRange);
    else if (key == "time_budget")
      sweep.time_budget_s = in_range<double>(source, kv, kTimeBudgetRange);
    else if (key == "rse_target")
      sweep.rse_target = in_range<double>(source, kv, kRseTargetRange);
    else if (key == "point_timeout")
      sweep.point_timeout_s = in_range<double>(source, kv, kPointTimeoutRange);
    else if (key == "runs") {
      if (!kv.second.IsSequence()) fail(source, kv.second, "expected a list of run entries");
      for (const auto& entry : kv.second)
        sweep.runs.push_back(parse_entry(source, entry, sweep.runs.size()));
    } else {
      fail(
          source, kv.first,
          key + ": unknown key '" + key +
              "' (expected name, samples, time_budget, rse_target, point_timeout, runs)" +
              hint(key, {"name", "samples", "time_budget", "rse_target", "point_timeout", "runs"}));
    }
  }
  if (sweep.runs.empty()) fail(source, root, "the sweep has no 'runs'");
  return sweep;
}

SweepFile load_sweep_file(const std::string& path) {
  return parse_sweep_text(read_config_text(path, "sweep file"), path);
}

}  // namespace gb
