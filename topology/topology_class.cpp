#include "topology/topology_class.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "errors/errors.hpp"
#include "topology/nvlink_groups.hpp"

namespace gb::topo {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Two 4-cliques joined by a perfect matching, as in the DGX-1 (P100 and V100).
bool is_hybrid_cube_mesh(const Topology& topo, const std::vector<std::vector<int>>& groups) {
  if (topo.gpu_count() != 8 || groups.size() != 2 || groups[0].size() != 4) return false;
  for (const auto& group : groups) {
    for (int gpu : group) {
      int outside = 0;
      for (int peer = 0; peer < 8; ++peer)
        if (topo.nvlink(gpu, peer) > 0 &&
            std::find(group.begin(), group.end(), peer) == group.end())
          ++outside;
      if (outside != 1) return false;
    }
  }
  return true;
}

// Islands are named by their count and size ("islands2x2"), every other shape by the GPU count.
std::string nvlink_shape(const Topology& topo) {
  const std::string n = std::to_string(topo.gpu_count());
  const auto components = nvlink_components(topo);
  const auto groups = nvlink_groups(topo);
  if (groups.size() == 1) return "clique" + n;
  if (components.size() == 1) return (is_hybrid_cube_mesh(topo, groups) ? "cubemesh" : "mesh") + n;
  const std::size_t size = components.front().size();
  const bool islands = size > 1 && components == groups &&
                       std::all_of(components.begin(), components.end(),
                                   [size](const auto& c) { return c.size() == size; });
  if (islands) return "islands" + std::to_string(components.size()) + "x" + std::to_string(size);
  return "partial" + n;
}

}  // namespace

std::string topology_class(const Topology& topo) {
  const int n = topo.gpu_count();
  if (n == 0) return "none";
  if (n == 1) return "single";
  std::set<int> counts;
  PathType longest = PathType::X;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (topo.nvlink(a, b) > 0)
        counts.insert(topo.nvlink(a, b));
      else
        longest = std::max(longest, topo.links[a][b].path);
    }
  }
  if (counts.empty()) {
    const std::string path = longest == PathType::Unknown ? "unknown" : lower(to_string(longest));
    return "pcie-" + path + std::to_string(n);
  }
  std::string name;
  for (int count : counts) name += "nv" + std::to_string(count);
  return name + "-" + nvlink_shape(topo);
}

std::string topology_class(const Topology& topo, const std::vector<int>& gpu_subset) {
  Topology sub;
  for (std::size_t i = 0; i < gpu_subset.size(); ++i) {
    const int gpu = gpu_subset[i];
    if (gpu < 0 || gpu >= topo.gpu_count())
      throw UsageError("GPU " + std::to_string(gpu) + " is not in a topology of " +
                       std::to_string(topo.gpu_count()) + " GPUs");
    if (std::find(gpu_subset.begin(), gpu_subset.begin() + i, gpu) != gpu_subset.begin() + i)
      throw UsageError("GPU " + std::to_string(gpu) + " appears twice in a GPU subset");
    sub.gpus.push_back(topo.gpus[gpu]);
  }
  for (int a : gpu_subset) {
    sub.links.emplace_back();
    for (int b : gpu_subset) sub.links.back().push_back(topo.links[a][b]);
  }
  return topology_class(sub);
}

}  // namespace gb::topo
