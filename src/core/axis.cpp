#include "core/axis.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "core/axis_glossary.hpp"
#include "core/glob.hpp"
#include "errors/errors.hpp"

namespace gb {
namespace {

constexpr std::size_t kMaxAxisValues = 100000;
constexpr const char* kForms =
    "expected name=v1,v2,... or name=first:last[:step] or name=first:last:*factor "
    "(e.g. threads_per_block=32,64,128, gpu_count=1:8, blocks_per_sm=1:32:*2 or "
    "ordering=release-acquire,seq-cst-fence)";

std::optional<long> as_integer(std::string_view item) {
  long v = 0;
  const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
  if (item.empty() || ec != std::errc() || ptr != item.data() + item.size()) return std::nullopt;
  return v;
}

long parse_long(std::string_view item, std::string_view whole) {
  long v = 0;
  const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
  if (ec != std::errc() || ptr != item.data() + item.size())
    throw UsageError("malformed --axis '" + std::string(whole) + "': '" + std::string(item) +
                     "' is not an integer; " + kForms);
  return v;
}

std::vector<std::string> parse_range(std::string_view spec, std::string_view whole) {
  const auto parts = split_list(spec, ':');
  if (parts.size() != 2 && parts.size() != 3)
    throw UsageError("malformed --axis '" + std::string(whole) + "'; " + kForms);
  const long first = parse_long(parts[0], whole);
  const long last = parse_long(parts[1], whole);
  const std::string_view step_text = parts.size() == 3 ? std::string_view(parts[2]) : "1";
  const bool geometric = !step_text.empty() && step_text.front() == '*';
  const long step = parse_long(geometric ? step_text.substr(1) : step_text, whole);
  if (first > last || (geometric ? step < 2 || first < 1 : step < 1))
    throw UsageError("malformed --axis '" + std::string(whole) +
                     "': needs first <= last and a step >= 1 (factor >= 2, first >= 1)");
  std::vector<std::string> values;
  for (long v = first; v <= last; v = geometric ? v * step : v + step) {
    values.push_back(std::to_string(v));
    if (values.size() > kMaxAxisValues)
      throw UsageError("--axis '" + std::string(whole) + "' has more than " +
                       std::to_string(kMaxAxisValues) + " values, the most one axis takes");
  }
  return values;
}

struct NamedRange {
  std::string_view name;
  AxisRange range;
};

// One meaning per axis name across methods; a categorical axis (ordering, variant, fault, ...)
// takes the codes its methods name (core/axis_glossary.hpp) and only needs to be non-negative
// here.
constexpr NamedRange kRanges[] = {
    {"threads_per_block", {1, 1024}},  // CUDA's limit on every GPU so far
    {"blocks_per_sm", {1, 1024}},
    {"group_size", {1, 65536}},  // threads of a warp tile, an
                                 // OpenMP team or a rank group
    {"cluster_size", {1, 64}},   // 16 on Hopper (non-portable); more is a skipped row
    {"gpu_count", {0, 4096}},    // 0: every GPU given
    {"bytes", {1, 1L << 44}},
    {"fusion_i", {1, 1000000}},
    {"fusion_j", {1, 1000000}},
    {"unit_ns", {0, 1000000000}},
};

}  // namespace

AxisRange axis_range(std::string_view name) {
  for (const auto& r : kRanges)
    if (r.name == name) return r.range;
  return {0, 1L << 40};
}

void check_axis_values(const AxisOverride& axis) {
  const AxisRange r = axis_range(axis.name);
  const bool categorical = categorical_axis(axis.name);
  for (const std::string& text : axis.values) {
    const std::optional<long> code = as_integer(text);
    if (!code && !categorical)
      throw UsageError(fmt::format("axis {}={}: {} takes integers only (its values have no names)",
                                   axis.name, text, axis.name));
    if (!code && glossary_meaning(axis.name, text).empty())
      throw UsageError(fmt::format("axis {}={}: no {} is named '{}'; the names: {}", axis.name,
                                   text, axis.name, text, value_names_text(axis.name)));
    if (code && categorical && !named_code(axis.name, *code))
      throw UsageError(fmt::format("axis {}={}: no method has a {} of code {}; the names: {}",
                                   axis.name, text, axis.name, *code, value_names_text(axis.name)));
  }
  for (const std::string& text : axis.values)
    if (const auto v = as_integer(text); v && (*v < r.lo || *v > r.hi))
      throw UsageError(
          fmt::format("axis {}={}: outside the axis' range {}..{} (no method can run it)",
                      axis.name, text, r.lo, r.hi));
}

AxisOverride parse_axis(std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError("malformed --axis '" + std::string(text) + "'; " + kForms);
  AxisOverride axis{std::string(text.substr(0, eq)), {}};
  const std::string_view spec = text.substr(eq + 1);
  if (spec.find(':') != std::string_view::npos) {
    axis.values = parse_range(spec, text);
  } else {
    for (const auto& item : split_list(spec)) {
      if (value_name_form(item))
        axis.values.push_back(item);
      else
        axis.values.push_back(std::to_string(parse_long(item, text)));
    }
  }
  if (axis.values.empty())
    throw UsageError("malformed --axis '" + std::string(text) + "'; " + kForms);
  return axis;
}

bool value_name_form(std::string_view text) {
  if (text.empty() || text.front() < 'a' || text.front() > 'z') return false;
  for (char c : text)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

long resolve_value(const Axis& axis, std::string_view value, std::string_view method) {
  const std::optional<long> integer = as_integer(value);
  if (integer && (!axis.categorical() || !axis.name_of(*integer).empty())) return *integer;
  if (const auto code = axis.code_of(value)) return *code;
  std::string names, codes;
  for (const ValueName& n : axis.names) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", n.name);
    codes += fmt::format("{}{}", codes.empty() ? "" : ", ", n.code);
  }
  const std::string of = method.empty() ? "" : " of " + std::string(method);
  throw UsageError(fmt::format(
      "axis {}={}: no such {}{}; {}", axis.name, value, axis.name, of,
      names.empty() ? "it takes integers only"
                    : fmt::format("expected one of {} (or their codes {})", names, codes)));
}

void check_value_names(const AxisOverride& override, const Axis& axis, std::string_view method) {
  for (const std::string& v : override.values) resolve_value(axis, v, method);
}

std::vector<Point> expand_points(const std::vector<Axis>& axes,
                                 const std::vector<AxisOverride>& overrides) {
  struct Combo {
    std::vector<std::pair<std::string, long>> values;
    Point::Names names;
  };
  std::vector<Combo> combos{{}};
  for (const auto& axis : axes) {
    std::vector<long> codes = axis.values;
    for (const auto& o : overrides)
      if (o.name == axis.name) {
        codes.clear();
        for (const std::string& v : o.values) codes.push_back(resolve_value(axis, v));
      }
    std::vector<Combo> next;
    for (const auto& combo : combos)
      for (long v : codes) {
        next.push_back(combo);
        next.back().values.emplace_back(axis.name, v);
        if (const std::string_view n = axis.name_of(v); !n.empty())
          next.back().names.emplace_back(axis.name, n);
      }
    combos = std::move(next);
  }
  std::vector<Point> points;
  for (auto& c : combos) points.emplace_back(std::move(c.values), std::move(c.names));
  return points;
}

std::string named_config(std::string_view config, const std::vector<Axis>& axes) {
  std::string out;
  std::size_t at = 0;
  while (at < config.size()) {
    const std::size_t end = std::min(config.find(' ', at), config.size());
    const std::string_view item = config.substr(at, end - at);
    at = end + 1;
    if (item.empty()) continue;
    std::string text(item);
    const std::size_t eq = item.find('=');
    if (eq != std::string_view::npos) {
      const std::string_view key = item.substr(0, eq);
      const std::optional<long> code = as_integer(item.substr(eq + 1));
      for (const Axis& a : axes)
        if (code && a.name == key)
          if (const std::string_view n = a.name_of(*code); !n.empty())
            text = std::string(key) + "=" + std::string(n);
    }
    out += (out.empty() ? "" : " ") + text;
  }
  return out;
}

}  // namespace gb
