#include "core/test_rank_nodes.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/errors.hpp"

namespace gb {

std::optional<int> parse_ranks_per_node(const char* value) {
  if (!value) return 0;
  int k = 0;
  const char* end = value + std::strlen(value);
  const auto [ptr, ec] = std::from_chars(value, end, k);
  if (ec != std::errc() || ptr != end || ptr == value || k < 0) return std::nullopt;
  return k;
}

int test_ranks_per_node() {
  static const int k = [] {
    const char* v = std::getenv("GPUBARRIER_TEST_RANKS_AS_NODES");
    const std::optional<int> parsed = parse_ranks_per_node(v);
    if (!parsed)
      throw UsageError(std::string("GPUBARRIER_TEST_RANKS_AS_NODES='") + v +
                       "': expected a number of ranks per simulated node (1 = every rank a "
                       "node of its own), or 0 for off");
    if (*parsed == 1)
      std::fprintf(stderr,
                   "GPUBARRIER_TEST_RANKS_AS_NODES: every rank counts as a node of its own\n");
    else if (*parsed > 1)
      std::fprintf(stderr, "GPUBARRIER_TEST_RANKS_AS_NODES: every %d ranks count as one node\n",
                   *parsed);
    return *parsed;
  }();
  return k;
}

}  // namespace gb
