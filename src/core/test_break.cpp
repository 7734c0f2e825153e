#include "core/test_break.hpp"

#include <cstdio>
#include <cstdlib>

#include "core/glob.hpp"

namespace gb {

bool test_break(std::string_view method) {
  const char* glob = std::getenv("GPUBARRIER_TEST_BREAK");
  if (!glob || !*glob || !glob_match(glob, method)) return false;
  std::fprintf(stderr, "GPUBARRIER_TEST_BREAK: the check of %.*s runs without its barrier\n",
               static_cast<int>(method.size()), method.data());
  return true;
}

}  // namespace gb
