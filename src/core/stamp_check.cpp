#include "core/stamp_check.hpp"

#include <algorithm>
#include <climits>
#include <map>

#include <fmt/format.h>

#include "errors/errors.hpp"

namespace gb {
namespace {

// Renumbers the clock groups 0..n-1 so that each round needs only flat arrays.
std::vector<int> dense_groups(const StampLayout& layout, int& count) {
  std::vector<int> dense(layout.participants, 0);
  count = layout.participants > 0 ? 1 : 0;
  if (layout.clock_group.empty()) return dense;
  std::map<int, int> ids;
  for (int i = 0; i < layout.participants; ++i) {
    const int g = layout.clock_group[i];
    dense[i] = g < 0 ? -1 : ids.try_emplace(g, static_cast<int>(ids.size())).first->second;
  }
  count = static_cast<int>(ids.size());
  return dense;
}

struct Extreme {
  long long clock;
  int who;
};

}  // namespace

Verification StampFindings::verdict() const {
  if (ok()) return Verification::passed();
  std::string d;
  auto add = [&](long n, const char* what) {
    if (n == 0) return;
    if (!d.empty()) d += ", ";
    d += std::to_string(n) + " " + what;
  };
  add(stale, "stale peer stamps");
  add(ahead, "peer stamps from beyond the next barrier");
  add(out_of_order, "rounds where a participant left before all had arrived");
  return Verification::failed(d + " (first: " + first + ")");
}

StampFindings check_stamps(std::span<const StampRecord> records, const StampLayout& layout) {
  if (layout.rounds < 0 || layout.participants < 0 ||
      records.size() != static_cast<std::size_t>(layout.rounds) * layout.participants)
    throw Error(fmt::format("stamp check: {} records for {} rounds of {} participants",
                            records.size(), layout.rounds, layout.participants));
  if (!layout.clock_group.empty() &&
      layout.clock_group.size() != static_cast<std::size_t>(layout.participants))
    throw Error(fmt::format("stamp check: clock_group has {} entries for {} participants",
                            layout.clock_group.size(), layout.participants));

  int groups = 0;
  const std::vector<int> group = dense_groups(layout, groups);
  StampFindings f;
  auto note = [&](const std::string& what) {
    if (f.first.empty()) f.first = what;
  };

  std::vector<Extreme> last_in(groups), first_out(groups);
  for (int r = 0; r < layout.rounds; ++r) {
    const unsigned round = static_cast<unsigned>(r) + 1;  // stamps start at 1; memory starts at 0
    std::fill(last_in.begin(), last_in.end(), Extreme{LLONG_MIN, -1});
    std::fill(first_out.begin(), first_out.end(), Extreme{LLONG_MAX, -1});
    for (int i = 0; i < layout.participants; ++i) {
      const int g = group[i];
      if (g < 0) continue;
      const StampRecord& s = records[static_cast<std::size_t>(r) * layout.participants + i];
      ++f.records;
      auto read = [&](unsigned stamp) {
        note(fmt::format("round {}, participant {} read stamp {} after the barrier", round, i,
                         stamp));
      };
      if (s.seen_min < round) {
        ++f.stale;
        read(s.seen_min);
      }
      if (s.seen_max > round + 1) {
        ++f.ahead;
        read(s.seen_max);
      }
      if (s.before > last_in[g].clock) last_in[g] = {s.before, i};
      if (s.after < first_out[g].clock) first_out[g] = {s.after, i};
    }
    for (int g = 0; g < groups; ++g) {
      if (first_out[g].who < 0 || first_out[g].clock >= last_in[g].clock) continue;
      ++f.out_of_order;
      note(fmt::format(
          "round {}: participant {} left at clock {} before participant {} arrived at {}", round,
          first_out[g].who, first_out[g].clock, last_in[g].who, last_in[g].clock));
    }
  }
  return f;
}

}  // namespace gb
