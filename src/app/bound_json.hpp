// A method's physical bound (core/method.hpp, Bound) as JSON, for `list --json` and `schema
// --json`: {metric, min, max, why, min_exclusive}, null for an open side. Json: nlohmann::json or
// nlohmann::ordered_json, the key order of the document it goes into.
#pragma once

#include <optional>

#include "core/method.hpp"

namespace gb::cli {

template <class Json>
Json bound_json(const Bound& b) {
  const auto side = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  return {{"metric", name_of(b.metric)},
          {"min", side(b.min)},
          {"max", side(b.max)},
          {"why", b.why},
          {"min_exclusive", b.min_exclusive}};
}

}  // namespace gb::cli
