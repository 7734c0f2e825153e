#include "core/glob.hpp"

#include <algorithm>
#include <numeric>

#include "errors/errors.hpp"

namespace gb {

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative matcher with single backtrack point: linear in practice, no recursion blow-up.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) items.emplace_back(item);
    start = end + 1;
  }
  return items;
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closest_word(std::string_view word, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : known) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) best = candidate, best_distance = d;
  }
  return best;
}

std::vector<std::string> close_names(std::string_view query,
                                     const std::vector<std::string>& candidates,
                                     std::size_t limit) {
  std::string bare(query);
  std::erase(bare, '*');
  std::erase(bare, '?');
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const bool contains = !bare.empty() && c.find(bare) != std::string::npos;
    scored.emplace_back(contains ? 0 : edit_distance(bare, c), c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && out.size() < limit; ++i)
    out.push_back(scored[i].second);
  return out;
}

std::vector<std::string> select_names(std::string_view globs,
                                      const std::vector<std::string>& candidates) {
  const auto patterns = split_list(globs);
  if (patterns.empty()) throw UsageError("--methods is empty: expected GLOB[,GLOB], e.g. 'gpu.*'");
  std::vector<std::string> selected;
  for (const auto& pattern : patterns) {
    bool any = false;
    for (const auto& c : candidates) {
      if (!glob_match(pattern, c)) continue;
      any = true;
      if (std::find(selected.begin(), selected.end(), c) == selected.end()) selected.push_back(c);
    }
    if (!any) {
      std::string msg = "no method matches '" + pattern + "'";
      const auto near = close_names(pattern, candidates);
      if (!near.empty()) {
        msg += "; did you mean: ";
        for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
      }
      throw UsageError(msg + " (see `gpubarrier list`)");
    }
  }
  std::vector<std::string> ordered;
  for (const auto& c : candidates)
    if (std::find(selected.begin(), selected.end(), c) != selected.end()) ordered.push_back(c);
  return ordered;
}

}  // namespace gb
