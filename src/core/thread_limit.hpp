// How many more threads this process can start now, before a team of them is started: a team
// beyond the machine's limits does not fail halfway (a thread the runtime cannot create aborts the
// process, a stack that does not fit crashes it), it becomes a skipped row that says which limit.
#pragma once

#include <string>

namespace gb {

struct ThreadRoom {
  long threads = -1;  // more threads this process may start; -1: no limit found
  std::string limit;  // what bounds it, in the words of the limit ("ulimit -v 4000000 KiB ...")
};

// The tightest of: the user's process limit (RLIMIT_NPROC, which counts every thread of the
// user's; not for root, which it does not bind), the cgroup's pids.max, the kernel's threads-max,
// and the address space left under RLIMIT_AS at one thread stack each (OMP_STACKSIZE, else the
// stack limit, as libgomp and glibc size them).
ThreadRoom thread_room();

}  // namespace gb
