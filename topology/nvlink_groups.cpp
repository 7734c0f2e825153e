#include "topology/nvlink_groups.hpp"

#include <algorithm>
#include <bit>

#include "errors/errors.hpp"

namespace gb::topo {
namespace {

using Mask = std::uint64_t;

Mask bit(int i) {
  return Mask{1} << i;
}

std::vector<int> members(Mask mask) {
  std::vector<int> out;
  for (; mask != 0; mask &= mask - 1) out.push_back(std::countr_zero(mask));
  return out;
}

// Lexicographically first maximum clique by branch and bound. Vertices are tried in index order,
// so the first clique of the largest size found is the one with the lowest indices; a greedy
// colouring bounds the clique any candidate set can still hold, which keeps the search fast on
// the dense graphs NVLink produces.
class MaxClique {
 public:
  explicit MaxClique(const std::vector<Mask>& adjacency) : adjacency_(adjacency) {}

  Mask find(Mask candidates) {
    best_ = 0;
    best_size_ = 0;
    expand(0, 0, candidates);
    return best_;
  }

 private:
  int colour_bound(Mask candidates) const {
    int colours = 0;
    for (Mask uncoloured = candidates; uncoloured != 0; ++colours) {
      for (Mask open = uncoloured; open != 0;) {
        const int v = std::countr_zero(open);
        uncoloured &= ~bit(v);
        open &= ~bit(v) & ~adjacency_[v];
      }
    }
    return colours;
  }

  void expand(Mask clique, int size, Mask candidates) {
    if (candidates == 0) {
      if (size > best_size_) {
        best_ = clique;
        best_size_ = size;
      }
      return;
    }
    if (size + colour_bound(candidates) <= best_size_) return;
    while (candidates != 0 && size + std::popcount(candidates) > best_size_) {
      const int v = std::countr_zero(candidates);
      candidates &= ~bit(v);
      expand(clique | bit(v), size + 1, candidates & adjacency_[v]);
    }
  }

  const std::vector<Mask>& adjacency_;
  Mask best_ = 0;
  int best_size_ = 0;
};

void sort_by_first(std::vector<std::vector<int>>& sets) {
  std::sort(sets.begin(), sets.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
}

}  // namespace

std::vector<Mask> nvlink_adjacency(const Topology& topo) {
  const int n = topo.gpu_count();
  if (n > kMaxGpus)
    throw UsageError("topology of " + std::to_string(n) + " GPUs: at most " +
                     std::to_string(kMaxGpus) + " are supported");
  std::vector<Mask> adjacency(n, 0);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b && (topo.nvlink(a, b) > 0 || topo.nvlink(b, a) > 0)) adjacency[a] |= bit(b);
  return adjacency;
}

std::vector<std::vector<int>> nvlink_components(const Topology& topo) {
  const auto adjacency = nvlink_adjacency(topo);
  std::vector<std::vector<int>> components;
  Mask seen = 0;
  for (int start = 0; start < topo.gpu_count(); ++start) {
    if (seen & bit(start)) continue;
    Mask component = bit(start);
    for (Mask frontier = component; frontier != 0;) {
      Mask next = 0;
      for (int v : members(frontier)) next |= adjacency[v];
      frontier = next & ~component;
      component |= next;
    }
    seen |= component;
    components.push_back(members(component));
  }
  return components;
}

std::vector<std::vector<int>> nvlink_groups(const Topology& topo) {
  const auto adjacency = nvlink_adjacency(topo);
  MaxClique search(adjacency);
  std::vector<std::vector<int>> groups;
  Mask left = topo.gpu_count() == kMaxGpus ? ~Mask{0} : bit(topo.gpu_count()) - 1;
  while (left != 0) {
    const Mask group = search.find(left);
    groups.push_back(members(group));
    left &= ~group;
  }
  sort_by_first(groups);
  return groups;
}

}  // namespace gb::topo
