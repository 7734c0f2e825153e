#include "jobs/rank_cores.hpp"

#include <algorithm>
#include <set>

#include "topology/cpulist.hpp"

namespace gb::jobs {
namespace {

// The runs of consecutive CPUs of a sorted list, as (first, last).
std::vector<std::pair<int, int>> runs(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  std::vector<std::pair<int, int>> out;
  for (const int c : cpus) {
    if (!out.empty() && c == out.back().second + 1)
      out.back().second = c;
    else
      out.emplace_back(c, c);
  }
  return out;
}

// Half the machine's CPUs where every NUMA node is two runs that far apart (the second the
// siblings of the first); 0 where no sibling is known.
int sibling_offset(const std::vector<std::vector<int>>& numa) {
  std::size_t total = 0;
  for (const auto& node : numa) total += node.size();
  if (numa.empty() || total % 2 != 0) return 0;
  const int half = static_cast<int>(total / 2);
  for (const auto& node : numa) {
    const auto r = runs(node);
    if (r.size() != 2 || r[1].first != r[0].first + half || r[1].second != r[0].second + half)
      return 0;
  }
  return half;
}

}  // namespace

std::vector<std::string> rank_cores(const std::vector<std::string>& local,
                                    const std::vector<std::vector<int>>& numa) {
  const int half = sibling_offset(numa);
  std::set<int> taken;
  std::vector<std::string> out;
  for (const std::string& list : local) {
    const auto cpus = topo::parse_cpulist(list).value_or(std::vector<int>{});
    const auto core = std::find_if(cpus.begin(), cpus.end(), [&](int c) {
      return (half == 0 || c < half) && !taken.count(c);
    });
    if (cpus.empty() || core == cpus.end()) {
      out.push_back(list);
      continue;
    }
    taken.insert(*core);
    std::vector<int> mask{*core};
    if (half > 0 && std::count(cpus.begin(), cpus.end(), *core + half)) mask.push_back(*core + half);
    out.push_back(topo::format_cpulist(mask));
  }
  return out;
}

}  // namespace gb::jobs
