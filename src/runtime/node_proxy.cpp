#include "runtime/node_proxy.hpp"

#include <atomic>
#include <chrono>

#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"

namespace gb::mg {
#ifdef GPUBARRIER_HAVE_MPI
namespace {

// Spins until the GPU published `epoch` (true) or `deadline_s` passed (false). The clock is read
// every 1024 polls: off the path of a healthy crossing, which the proxy's latency is part of.
bool wait_arrived(ProxyWords* words, unsigned long long epoch, double deadline_s) {
  std::atomic_ref<unsigned long long> arrived(words->arrived);
  if (arrived.load(std::memory_order_acquire) >= epoch) return true;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(deadline_s);
  for (unsigned i = 1;; ++i) {
    if (arrived.load(std::memory_order_acquire) >= epoch) return true;
    if (i % 1024 == 0 && std::chrono::steady_clock::now() > deadline) return false;
  }
}

}  // namespace
#endif

std::string ProxyOutcome::detail() const {
  if (gave_up) return "a node's GPUs never reached the barrier (its proxy gave up)";
  if (node_missing) return "a node never reached the network barrier";
  return {};
}

#ifdef GPUBARRIER_HAVE_MPI
ProxyOutcome run_node_proxy(MPI_Comm leaders, ProxyWords* words, unsigned long long first,
                            unsigned long long last, double deadline_s, ProxyCrossing crossing,
                            bool launched) {
  ProxyOutcome out;
  out.gave_up = !launched;
  if (leaders == MPI_COMM_NULL) throw Error("the node proxy runs on node leaders only");
  std::atomic_ref<unsigned long long> release(words->release);
  for (unsigned long long e = first; e <= last; ++e) {
    if (!out.gave_up && !wait_arrived(words, e, deadline_s)) out.gave_up = true;
    if (crossing == ProxyCrossing::barrier) {
      GB_MPI_CHECK(MPI_Barrier(leaders));
    } else {
      // A proxy that gave up reports 0: every leader then sees the node missing, at the same
      // epoch, and all stop together.
      unsigned long long seen = out.gave_up ? 0 : e;
      GB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, leaders));
      if (seen < e) {
        out.node_missing = true;
        break;
      }
    }
    if (out.gave_up) continue;
    release.store(e, std::memory_order_release);
    ++out.released;
  }
  return out;
}
#endif

ProxyOutcome run_node_proxy(const Team& team, ProxyWords* words, unsigned long long first,
                            unsigned long long last, double deadline_s, ProxyCrossing crossing,
                            bool launched) {
#ifdef GPUBARRIER_HAVE_MPI
  return run_node_proxy(team.leaders_comm(), words, first, last, deadline_s, crossing, launched);
#else
  (void)team;
  (void)words;
  (void)first;
  (void)last;
  (void)deadline_s;
  (void)crossing;
  (void)launched;
  throw Error("the node proxy needs MPI (built without it)");
#endif
}

}  // namespace gb::mg
