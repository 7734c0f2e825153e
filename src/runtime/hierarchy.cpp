#include "runtime/hierarchy.hpp"

#include <algorithm>

namespace gb::mg {

std::vector<int> member_groups(const std::vector<int>& topology_index,
                               const std::vector<std::vector<int>>& nvlink_groups) {
  const int listed = static_cast<int>(nvlink_groups.size());
  std::vector<int> groups;
  for (int m = 0; m < static_cast<int>(topology_index.size()); ++m) {
    int id = listed + m;
    for (int g = 0; g < listed; ++g) {
      const auto& gpus = nvlink_groups[g];
      if (std::find(gpus.begin(), gpus.end(), topology_index[m]) != gpus.end()) id = g;
    }
    groups.push_back(id);
  }
  return groups;
}

Hierarchy hierarchy_of(const std::vector<int>& groups, int member) {
  Hierarchy h;
  const int n = static_cast<int>(groups.size());
  for (int m = 0; m < n; ++m) {
    if (groups[m] == groups[member]) h.group.push_back(m);
    const bool first_of_group =
        std::find(groups.begin(), groups.begin() + m, groups[m]) == groups.begin() + m;
    if (first_of_group) h.leaders.push_back(m);
  }
  h.leader = h.group.front();
  return h;
}

}  // namespace gb::mg
