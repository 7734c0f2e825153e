#include "core/test_rank_nodes.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gb {

bool test_ranks_as_nodes() {
  static const bool on = [] {
    const char* v = std::getenv("GPUBARRIER_TEST_RANKS_AS_NODES");
    const bool set = v && std::strcmp(v, "1") == 0;
    if (set)
      std::fprintf(stderr,
                   "GPUBARRIER_TEST_RANKS_AS_NODES: every rank counts as a node of its own\n");
    return set;
  }();
  return on;
}

}  // namespace gb
