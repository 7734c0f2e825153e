// The names of a categorical value: an enum declares every value with the one name users read
// (in the CSV, the JSON, the command line) in one table, found by `name_table(E)` through ADL.
// Code compares the enum; text becomes an enum where a command line, a sweep file, a CSV or a
// child's stream is read (`from_name`, `parse_name`) and a name again only where a sink writes it
// (`name_of`), so a misspelt name is refused where it is read, not silently unequal.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors/errors.hpp"

namespace gb {

template <class E>
struct Named {
  E value;
  std::string_view name;
};

// An enum whose table lists each of its values once with its name.
template <class E>
concept NamedEnum = requires(E e) {
  {name_table(e)};
};

// The name of `value`; every value of a NamedEnum is in its table.
template <NamedEnum E>
constexpr std::string_view name_of(E value) {
  for (const Named<E>& n : name_table(E{}))
    if (n.value == value) return n.name;
  return {};
}

// The value named `text` exactly, std::nullopt for a text the table does not hold.
template <NamedEnum E>
constexpr std::optional<E> from_name(std::string_view text) {
  for (const Named<E>& n : name_table(E{}))
    if (n.name == text) return n.value;
  return std::nullopt;
}

// Every name of E, in its table's order: the values a flag of E takes (CLI::IsMember).
template <NamedEnum E>
std::vector<std::string> names_of() {
  std::vector<std::string> names;
  for (const Named<E>& n : name_table(E{})) names.emplace_back(n.name);
  return names;
}

// "'clock', 'differential' or 'fusion'": every name of E, for a message.
template <NamedEnum E>
std::string expected_names() {
  const auto& table = name_table(E{});
  std::string out;
  for (std::size_t i = 0; i < table.size(); ++i)
    out += (i == 0                  ? ""
            : i + 1 == table.size() ? " or "
                                    : ", ") +
           ("'" + std::string(table[i].name) + "'");
  return out;
}

// The value named `text`; throws gb::UsageError "unknown <what> '<text>' (expected ...)" naming
// every name of E for any other text.
template <NamedEnum E>
E parse_name(std::string_view text, std::string_view what) {
  if (const std::optional<E> value = from_name<E>(text)) return *value;
  throw UsageError("unknown " + std::string(what) + " '" + std::string(text) + "' (expected " +
                   expected_names<E>() + ")");
}

}  // namespace gb
