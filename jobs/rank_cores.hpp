// Where each MPI rank of a generated step spins: one core of its GPU's CPUs, and that core's
// hyperthread sibling at most, no core shared with another rank of the node. A barrier member
// that shares a core with another spinner, or migrates between the cores of a wide mask, waits
// out the scheduler (milliseconds) instead of the barrier (hundreds of nanoseconds).
#pragma once

#include <string>
#include <vector>

namespace gb::jobs {

// A cpulist per local rank ("0,112"): the first core of `local[i]` (rank i's GPU-local cpulist)
// that no earlier rank took, with its sibling where `numa` (every NUMA node's CPUs) shows SMT.
// SMT is read from the numbering Linux gives x86 machines: every node's CPUs are two runs, the
// second the first plus half the machine's CPUs ("0-55,112-167" and "56-111,168-223"); else no
// sibling is known and a rank gets one CPU. "" where `local[i]` is unknown; the whole of
// `local[i]` where its cores ran out (more ranks than cores: the rows then say oversubscribed).
std::vector<std::string> rank_cores(const std::vector<std::string>& local,
                                    const std::vector<std::vector<int>>& numa);

}  // namespace gb::jobs
