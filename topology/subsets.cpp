#include "topology/subsets.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "errors/errors.hpp"

namespace gb::topo {
namespace {

// Beyond this many subsets the search turns greedy; C(16, 8) = 12870 stays exact.
constexpr long long kExhaustiveLimit = 200000;

// Larger is better connected.
using Score = std::tuple<int, int, int, int>;

int path_distance(const Link& link) {
  return link.path == PathType::NV ? 0 : static_cast<int>(link.path);
}

Score score(const Topology& topo, const std::vector<int>& subset) {
  int min_nvlink = std::numeric_limits<int>::max();
  int total_nvlink = 0;
  int worst_path = 0;
  int total_path = 0;
  for (std::size_t i = 0; i < subset.size(); ++i) {
    for (std::size_t j = i + 1; j < subset.size(); ++j) {
      const Link& link = topo.links[subset[i]][subset[j]];
      min_nvlink = std::min(min_nvlink, link.nvlink);
      total_nvlink += link.nvlink;
      worst_path = std::max(worst_path, path_distance(link));
      total_path += path_distance(link);
    }
  }
  if (subset.size() < 2) min_nvlink = 0;
  return {min_nvlink, total_nvlink, -worst_path, -total_path};
}

long long binomial(int n, int k) {
  long long result = 1;
  for (int i = 1; i <= k; ++i) {
    result = result * (n - k + i) / i;
    if (result > kExhaustiveLimit) return result;
  }
  return result;
}

void exhaustive(const Topology& topo, SubsetChoice& choice) {
  const int n = topo.gpu_count();
  std::vector<int> subset(choice.size);
  for (int i = 0; i < choice.size; ++i) subset[i] = i;
  Score best{}, worst{};
  bool first = true;
  while (true) {
    const Score s = score(topo, subset);
    if (first || s > best) best = s, choice.best = subset;
    if (first || s < worst) worst = s, choice.worst = subset;
    first = false;
    int i = choice.size - 1;
    while (i >= 0 && subset[i] == n - choice.size + i) --i;
    if (i < 0) break;
    ++subset[i];
    for (int j = i + 1; j < choice.size; ++j) subset[j] = subset[j - 1] + 1;
  }
}

// Pair statistics of a subset, kept up to date as GPUs join it.
struct Tally {
  int min_nvlink = std::numeric_limits<int>::max();
  int total_nvlink = 0;
  int worst_path = 0;
  int total_path = 0;

  Tally with(const Topology& topo, const std::vector<int>& subset, int gpu) const {
    Tally next = *this;
    for (int member : subset) {
      const Link& link = topo.links[member][gpu];
      next.min_nvlink = std::min(next.min_nvlink, link.nvlink);
      next.total_nvlink += link.nvlink;
      next.worst_path = std::max(next.worst_path, path_distance(link));
      next.total_path += path_distance(link);
    }
    return next;
  }

  Score score() const { return {min_nvlink, total_nvlink, -worst_path, -total_path}; }
};

// Grows a subset from every starting GPU, adding the GPU that helps (or hurts) most each time.
std::vector<int> greedy(const Topology& topo, int size, bool want_best) {
  const auto better = [want_best](const Score& a, const Score& b) {
    return want_best ? a > b : a < b;
  };
  std::vector<int> chosen;
  Score chosen_score{};
  for (int start = 0; start < topo.gpu_count(); ++start) {
    std::vector<int> subset{start};
    std::vector<bool> used(topo.gpu_count(), false);
    used[start] = true;
    Tally tally;
    while (static_cast<int>(subset.size()) < size) {
      int pick = -1;
      Tally pick_tally;
      for (int g = 0; g < topo.gpu_count(); ++g) {
        if (used[g]) continue;
        const Tally next = tally.with(topo, subset, g);
        if (pick < 0 || better(next.score(), pick_tally.score())) pick = g, pick_tally = next;
      }
      subset.push_back(pick);
      used[pick] = true;
      tally = pick_tally;
    }
    std::sort(subset.begin(), subset.end());
    const Score s = score(topo, subset);
    if (chosen.empty() || better(s, chosen_score) || (s == chosen_score && subset < chosen))
      chosen = subset, chosen_score = s;
  }
  return chosen;
}

}  // namespace

SubsetChoice connected_subsets(const Topology& topo, int size) {
  if (size < 1 || size > topo.gpu_count())
    throw UsageError("a subset of " + std::to_string(size) + " GPUs out of " +
                     std::to_string(topo.gpu_count()));
  SubsetChoice choice;
  choice.size = size;
  if (binomial(topo.gpu_count(), size) <= kExhaustiveLimit) {
    exhaustive(topo, choice);
  } else {
    choice.best = greedy(topo, size, true);
    choice.worst = greedy(topo, size, false);
  }
  return choice;
}

std::vector<SubsetChoice> connected_subsets(const Topology& topo) {
  std::vector<SubsetChoice> choices;
  for (int size = 1; size <= topo.gpu_count(); ++size)
    choices.push_back(connected_subsets(topo, size));
  return choices;
}

}  // namespace gb::topo
