#include "core/thread_limit.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gb {
namespace {

// The number after `key` in a /proc status file, or -1.
long status_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + key.size(), nullptr, 10);
  return -1;
}

long file_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || !std::isdigit(static_cast<unsigned char>(word[0])))
    return -1;
  return std::strtol(word.c_str(), nullptr, 10);
}

// Threads of every process whose real user is this process's.
long user_threads() {
  long total = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return -1;
  const long uid = static_cast<long>(getuid());
  while (const dirent* e = readdir(proc)) {
    if (!std::isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    const std::string status = std::string("/proc/") + e->d_name + "/status";
    if (status_value(status, "Uid:") != uid) continue;
    total += std::max(1L, status_value(status, "Threads:"));
  }
  closedir(proc);
  return total;
}

// This process's cgroup (v2) folder, or "".
std::string cgroup_folder() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  return "";
}

// Bytes of one thread's stack: OMP_STACKSIZE (a number with an optional B, K, M or G; K when
// none), else the soft stack limit, else 8 MiB; a page of guard beside it.
long long stack_bytes() {
  long long bytes = 8LL << 20;
  if (const char* omp = std::getenv("OMP_STACKSIZE"); omp && *omp) {
    char* end = nullptr;
    const long long n = std::strtoll(omp, &end, 10);
    long long unit = 1024;
    switch (end && *end ? std::toupper(static_cast<unsigned char>(*end)) : 'K') {
      case 'B':
        unit = 1;
        break;
      case 'M':
        unit = 1LL << 20;
        break;
      case 'G':
        unit = 1LL << 30;
        break;
      default:
        break;
    }
    if (n > 0) bytes = n * unit;
  } else if (rlimit r{}; getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
    bytes = static_cast<long long>(r.rlim_cur);
  }
  return bytes + 4096;
}

void tighter(ThreadRoom& room, long threads, const std::string& limit) {
  if (threads < 0) threads = 0;
  if (room.threads < 0 || threads < room.threads) room = {threads, limit};
}

}  // namespace

ThreadRoom thread_room() {
  ThreadRoom room;
  if (rlimit r{};
      geteuid() != 0 && getrlimit(RLIMIT_NPROC, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
    const long used = user_threads();
    if (used >= 0)
      tighter(room, static_cast<long>(r.rlim_cur) - used,
              "the user's process limit (ulimit -u " + std::to_string(r.rlim_cur) + "), " +
                  std::to_string(used) + " of them in use");
  }
  if (const std::string cg = cgroup_folder(); !cg.empty()) {
    const long max = file_number(cg + "/pids.max"), current = file_number(cg + "/pids.current");
    if (max >= 0 && current >= 0)
      tighter(room, max - current,
              "the cgroup's pids.max " + std::to_string(max) + ", " + std::to_string(current) +
                  " in use");
  }
  const long kernel = file_number("/proc/sys/kernel/threads-max");
  if (kernel >= 0) tighter(room, kernel, "the kernel's threads-max " + std::to_string(kernel));
  if (rlimit r{}; getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
    const long vm_kib = status_value("/proc/self/status", "VmSize:");
    const long long left = static_cast<long long>(r.rlim_cur) - (vm_kib < 0 ? 0 : vm_kib * 1024LL);
    const long long stack = stack_bytes();
    tighter(room, static_cast<long>(left / stack),
            "the address space left under ulimit -v " + std::to_string(r.rlim_cur / 1024) +
                " KiB at " + std::to_string(stack >> 10) + " KiB of stack a thread");
  }
  return room;
}

}  // namespace gb
