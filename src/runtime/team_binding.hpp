// Where the threads of an OpenMP team run. EPCC syncbench is run with OMP_PROC_BIND=close and
// OMP_PLACES=cores: one thread per core, thread i next to thread i-1, none migrating. gpubarrier
// places its host teams the same way (thread i on the i-th core this process may use, one
// hardware thread of every core before the second of any), unless the user placed them: then
// OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY or KMP_AFFINITY decide, as set.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

namespace gb {

class TeamBinding {
 public:
  // Reads the environment and this process's CPUs.
  TeamBinding();

  // Pins the calling thread, the team's member `member`, for the guard's lifetime (its CPU is
  // the member's modulo the CPUs: a team larger than them shares, and is flagged oversubscribed
  // elsewhere); the guard restores the thread's previous CPUs. Does nothing when the user placed
  // the threads or no CPU is known.
  class Pin {
   public:
    Pin(const TeamBinding& binding, int member);
    ~Pin();
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;

   private:
    bool pinned_ = false;
    cpu_set_t previous_{};
  };

  // For the rows' note: "threads pinned one per CPU, cores first" or "threads placed by
  // OMP_PROC_BIND=close".
  std::string note() const;

 private:
  std::string user_;        // "OMP_PROC_BIND=close ..." as set by the user; "" when unset
  std::vector<int> order_;  // the CPUs in placement order: one per core first
};

}  // namespace gb
