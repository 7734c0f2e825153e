// The host proxy of a node-aware device barrier (multinode.hierarchical): the node's
// leader GPU publishes each epoch it gathered to a host-mapped word; the leader rank's main
// thread sees it, crosses the network with the other nodes' leaders (MPI on the leaders'
// communicator) and publishes the epoch back, which the GPU waits for. It runs on the main
// thread because MPI runs at thread level `single` there (runtime/launcher.hpp). The proxy knows no
// algorithm: only the two words below, which the kernel and it share.
#pragma once

#include <string>

#include "runtime/team.hpp"

namespace gb::mg {

// In the node's host-mapped memory (runtime/host_shared.hpp); both only grow (epochs).
struct ProxyWords {
  // unsigned long long: the kernels' epoch type (kernels/multigpu/frame/signals.cuh: Word).
  alignas(128) unsigned long long arrived;  // the leader GPU: the last epoch its node gathered
  alignas(128) unsigned long long release;  // the leader's proxy: the last epoch the network passed
};

// How the leaders cross the network. barrier: MPI_Barrier, the figure's own path. min_arrived:
// MPI_Allreduce(MIN) of the epoch each leader saw arrive, for the check: a minimum below the
// epoch means a node never arrived, and then no proxy releases its node (its GPUs end on their
// watchdog) instead of letting the others pass a barrier that a node missed.
enum class ProxyCrossing { barrier, min_arrived };

struct ProxyOutcome {
  long released = 0;          // epochs this proxy released
  bool gave_up = false;       // its GPU did not arrive within the deadline (or never launched)
  bool node_missing = false;  // min_arrived: another node did not arrive
  std::string detail() const;
};

// Proxies epochs first..last (inclusive) on the leader rank of a node (team.node_leader());
// `words` as this process addresses them. `deadline_s` bounds each wait for the GPU's arrival:
// past it the proxy stops waiting and releasing (the kernel's own watchdog ends it) but still
// joins the leaders' remaining crossings, so that no other leader waits for it forever.
// `launched`: false when this rank's kernel failed to start (it is then absent from the outset).
// Collective over team.leaders_comm().
ProxyOutcome run_node_proxy(const Team& team, ProxyWords* words, unsigned long long first,
                            unsigned long long last, double deadline_s, ProxyCrossing crossing,
                            bool launched);

#ifdef GPUBARRIER_HAVE_MPI
// The same on a communicator of node leaders given directly (tests/mpi/node_proxy_check.cpp
// drives it with a thread in place of the GPU).
ProxyOutcome run_node_proxy(MPI_Comm leaders, ProxyWords* words, unsigned long long first,
                            unsigned long long last, double deadline_s, ProxyCrossing crossing,
                            bool launched);
#endif

}  // namespace gb::mg
