#include "runtime/team_binding.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "core/oversubscription.hpp"
#include "topology/cpulist.hpp"

namespace gb {
namespace {

// The position of `cpu` among the hardware threads of its core (0 for the first), from sysfs;
// 0 when sysfs does not say.
int sibling_index(int cpu) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                   "/topology/thread_siblings_list");
  std::string text;
  if (!std::getline(in, text)) return 0;
  const auto siblings = topo::parse_cpulist(text);
  if (!siblings) return 0;
  const auto at = std::find(siblings->begin(), siblings->end(), cpu);
  return at == siblings->end() ? 0 : static_cast<int>(at - siblings->begin());
}

}  // namespace

TeamBinding::TeamBinding() {
  for (const char* var : {"OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"})
    if (const char* value = std::getenv(var); value && *value) {
      if (!user_.empty()) user_ += ' ';
      user_.append(var).append("=").append(value);
    }
  if (!user_.empty()) return;
  std::vector<std::pair<int, int>> keyed;  // (sibling index, cpu)
  for (int c : process_cpus()) keyed.emplace_back(sibling_index(c), c);
  std::sort(keyed.begin(), keyed.end());
  for (const auto& [sibling, cpu] : keyed) order_.push_back(cpu);
}

TeamBinding::Pin::Pin(const TeamBinding& binding, int member) {
  if (binding.order_.empty() || member < 0) return;
  if (pthread_getaffinity_np(pthread_self(), sizeof previous_, &previous_) != 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(binding.order_[static_cast<std::size_t>(member) % binding.order_.size()], &one);
  pinned_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

TeamBinding::Pin::~Pin() {
  if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof previous_, &previous_);
}

std::string TeamBinding::note() const {
  if (!user_.empty()) return "threads placed by " + user_;
  return order_.empty() ? "threads not pinned (CPUs unknown)"
                        : "threads pinned one per CPU, cores first";
}

}  // namespace gb
