#include "app/stdout_check.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace gb::cli {

int finish_stdout(int status) {
  errno = 0;
  std::cout.flush();
  const bool stream_failed = !std::cout.good();
  const bool flush_failed = std::fflush(stdout) != 0;
  const int why = errno;
  if (!stream_failed && !flush_failed && !std::ferror(stdout)) return status;
  std::fprintf(stderr, "gpubarrier: failed: could not write standard output: %s\n",
               why != 0 ? std::strerror(why) : "a write failed earlier (the output is incomplete)");
  return status != 0 ? status : 1;
}

}  // namespace gb::cli
