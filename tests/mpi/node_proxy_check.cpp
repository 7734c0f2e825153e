// The host proxy of multinode.hierarchical (runtime/node_proxy.hpp) on CPUs alone: every rank is a
// node leader, and a thread of it plays the leader GPU (publishes each epoch its node gathered,
// waits for the release, as kernels/multinode/detail/node_gather.cuh does). Run by
// tests/mpi/test_mpi.py under `mpirun -np 2`; prints one line per rank, exits 0 when every
// rank's expectation held.
//   node_proxy_check healthy_barrier | healthy_min   every epoch released on every rank, and the
//       last rank's "GPU" arriving 200 ms late at one epoch holds every rank's release of it back
//   node_proxy_check absent_min       the last rank's "GPU" never arrives: its proxy gives up
//       after the deadline, every other proxy sees the node missing and releases nothing
//   node_proxy_check absent_barrier   the same while timing (MPI_Barrier): the proxy that gave
//       up still joins every remaining barrier, so nobody waits for it forever
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "runtime/node_proxy.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr unsigned long long kEpochs = 200, kLateEpoch = 100;
// Generous: CI runs this under ASan beside other tests on 2 cores, where 2 ranks x (proxy + GPU
// thread) spin on 2 cores and a thread may be off its core for a good part of a second (a 0.3 s
// deadline once gave up on a present "GPU" there, stop 23). The absent cases wait it out once.
constexpr double kDeadlineS = 2.0;
// The late one's delay, and the least wait it must cause the others: the margin absorbs a thread
// taken off its core between two epochs on a loaded machine.
constexpr auto kLate = std::chrono::milliseconds(200);
constexpr double kLeastHeldBackS = 0.15;

// What the thread in place of the GPU saw.
struct GpuSide {
  unsigned long long passed = 0;  // epochs it saw released
  double late_wait_s = 0;         // from its arrival at kLateEpoch to that epoch's release
};

GpuSide play_gpu(gb::mg::ProxyWords& w, bool absent, bool late) {
  GpuSide g;
  if (absent) return g;
  std::atomic_ref<unsigned long long> arrived(w.arrived), release(w.release);
  for (unsigned long long e = 1; e <= kEpochs; ++e) {
    if (late && e == kLateEpoch) std::this_thread::sleep_for(kLate);
    const auto t0 = Clock::now();
    arrived.store(e, std::memory_order_release);
    // The kernel's watchdog: give up well after the proxy's deadline.
    while (release.load(std::memory_order_acquire) < e) {
      if (Clock::now() - t0 > std::chrono::duration<double>(3 * kDeadlineS)) return g;
      std::this_thread::yield();  // leave the core to the proxies: more threads spin than cores
    }
    if (e == kLateEpoch) g.late_wait_s = std::chrono::duration<double>(Clock::now() - t0).count();
    g.passed = e;
  }
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);  // MPI on the main thread only
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool absent_case = mode.rfind("absent", 0) == 0;
  const bool last = rank == size - 1;
  const auto crossing = mode.find("min") != std::string::npos ? gb::mg::ProxyCrossing::min_arrived
                                                              : gb::mg::ProxyCrossing::barrier;
  gb::mg::ProxyWords words{};
  GpuSide gpu;
  std::thread gpu_thread([&] { gpu = play_gpu(words, absent_case && last, !absent_case && last); });
  const auto t0 = Clock::now();
  const gb::mg::ProxyOutcome out =
      gb::mg::run_node_proxy(MPI_COMM_WORLD, &words, 1, kEpochs, kDeadlineS, crossing, true);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  gpu_thread.join();

  // Bounded, never a hang: one deadline waited out, 200 epochs, and room for a loaded machine
  // (mpirun's own limit in test_mpi.py is 60 s).
  bool ok = seconds < kDeadlineS + 20;
  if (!absent_case) {
    ok = ok && out.released == static_cast<long>(kEpochs) && !out.gave_up && !out.node_missing &&
         gpu.passed == kEpochs && (last || gpu.late_wait_s > kLeastHeldBackS);  // held back by the late one
  } else if (last) {
    ok = ok && out.gave_up && out.released == 0;
  } else if (crossing == gb::mg::ProxyCrossing::min_arrived) {
    ok = ok && out.node_missing && out.released == 0 && gpu.passed == 0;
  } else {
    ok = ok && !out.gave_up && out.released == static_cast<long>(kEpochs);
  }
  std::printf(
      "%s rank %d: released %ld, gave_up %d, node_missing %d, gpu passed %llu, late wait "
      "%.3f s, %.3f s in all\n",
      ok ? "ok" : "WRONG", rank, out.released, out.gave_up, out.node_missing, gpu.passed,
      gpu.late_wait_s, seconds);
  int bad = ok ? 0 : 1, any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_bad;
}
