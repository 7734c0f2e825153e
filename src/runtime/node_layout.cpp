#include "runtime/node_layout.hpp"

#include <algorithm>

namespace gb {

NodeLayout layout_nodes(const std::vector<std::string>& rank_keys) {
  NodeLayout out;
  std::vector<std::string> seen;  // node index -> key
  for (int r = 0; r < static_cast<int>(rank_keys.size()); ++r) {
    const auto it = std::find(seen.begin(), seen.end(), rank_keys[r]);
    const int n = static_cast<int>(it - seen.begin());
    if (it == seen.end()) {
      seen.push_back(rank_keys[r]);
      out.node_size.push_back(0);
      out.leaders.push_back(r);
    }
    out.node.push_back(n);
    out.local.push_back(out.node_size[n]++);
  }
  return out;
}

NodeLayout single_node(int size) {
  return layout_nodes(std::vector<std::string>(static_cast<std::size_t>(std::max(size, 0)), ""));
}

std::string node_key(const std::string& node_name, int shared_domain) {
  return node_name + "#" + std::to_string(shared_domain);
}

}  // namespace gb
