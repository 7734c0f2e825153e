// GPU tests of the public barrier headers (include/gpubarrier/), compiled as C++17 against them
// alone: each barrier's contract by message passing, with a variant without the barrier that the
// same check must catch; the watchdog; the residency refusal. The cluster grid barrier's cases
// run where clusters exist (sm_90 and newer) and skip with the reason elsewhere.
//
// Message passing: in every round every thread of every block writes the round into its payload
// word with a plain store, crosses the barrier, and then reads, with plain loads, the payload of
// one block of another member (or of this GPU) that arrived late on purpose (it sleeps before its
// writes); it must see this round or the next, never an older one. Without the barrier the
// early blocks read the late block's words before it wrote them.
//
//   test_library_gpu <case>     exit 0 pass, 1 fail, 77 skip (no GPU, too few GPUs: the reason)
#include <gpubarrier/cluster_grid_barrier.cuh>
#include <gpubarrier/grid_barrier.cuh>
#include <gpubarrier/peer_device_barrier.cuh>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr int kSkip = 77;
constexpr int kRounds = 64;
constexpr unsigned kLateNs = 20000;
constexpr unsigned long long kWatchdogNs = 2'000'000'000ull;

#define CHECK(call)                                                                               \
  do {                                                                                            \
    const cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

// Every member's payload words (blocks x threads each) as this GPU addresses them.
struct Payloads {
  unsigned* of[gpubarrier::kMaxGpus];
  int member, members;
};

__device__ void sleep_ns(unsigned ns) {
  const unsigned long long until = gpubarrier::Watchdog::global_ns() + ns;
  while (gpubarrier::Watchdog::global_ns() < until) __nanosleep(1000);
}

// One round of message passing around `sync` (a barrier's sync(), or none).
template <class Sync>
__device__ void message_passing(const Payloads& p, unsigned* failures, Sync sync) {
  const unsigned blocks = gridDim.x, threads = blockDim.x;
  for (unsigned r = 1; r <= kRounds; ++r) {
    const int late_member = static_cast<int>(r % static_cast<unsigned>(p.members));
    const unsigned late_block = (r * 7) % blocks;
    if (p.member == late_member && blockIdx.x == late_block) sleep_ns(kLateNs);
    p.of[p.member][blockIdx.x * threads + threadIdx.x] = r;
    if (!sync()) return;
    const unsigned seen = p.of[late_member][late_block * threads + threadIdx.x];
    if (seen < r || seen > r + 1) atomicAdd(failures, 1u);
  }
}

__global__ void grid_check(gpubarrier::GridBarrierState s, Payloads p, unsigned* failures,
                           int with_barrier) {
  gpubarrier::GridBarrier bar(s);
  if (with_barrier)
    message_passing(p, failures, [&] { return bar.sync(); });
  else
    message_passing(p, failures, [] { return true; });
}

__global__ void cluster_grid_check(gpubarrier::GridBarrierState s, Payloads p, unsigned* failures,
                                   int with_barrier) {
  gpubarrier::ClusterGridBarrier bar(s);
  if (with_barrier)
    message_passing(p, failures, [&] { return bar.sync(); });
  else
    message_passing(p, failures, [] { return true; });
}

__global__ void device_check(const __grid_constant__ gpubarrier::DeviceBarrierState s, Payloads p,
                             unsigned* failures, int with_barrier) {
  gpubarrier::DeviceBarrier bar(s);
  if (with_barrier)
    message_passing(p, failures, [&] { return bar.sync(); });
  else
    message_passing(p, failures, [] { return true; });
}

// The last block never arrives: the others wait until the watchdog gives up. `passed` counts the
// blocks whose sync() returned true.
__global__ void grid_absent(gpubarrier::GridBarrierState s, unsigned* passed) {
  gpubarrier::GridBarrier bar(s);
  if (blockIdx.x == gridDim.x - 1) return;
  if (bar.sync() && threadIdx.x == 0) atomicAdd(passed, 1u);
}

// The last cluster (of `cluster_size` blocks) never arrives: its blocks leave at once.
__global__ void cluster_grid_absent(gpubarrier::GridBarrierState s, unsigned cluster_size,
                                    unsigned* passed) {
  if (blockIdx.x >= gridDim.x - cluster_size) return;
  gpubarrier::ClusterGridBarrier bar(s);
  if (bar.sync() && threadIdx.x == 0) atomicAdd(passed, 1u);
}

__global__ void device_absent(const __grid_constant__ gpubarrier::DeviceBarrierState s,
                              unsigned* passed) {
  gpubarrier::DeviceBarrier bar(s);
  if (blockIdx.x == gridDim.x - 1) return;
  if (bar.sync() && threadIdx.x == 0) atomicAdd(passed, 1u);
}

__global__ void mark(unsigned* ran) {
  *ran = 1;
}

int gpus() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

unsigned read_word(const unsigned* p) {
  unsigned v = 0;
  CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

unsigned* zeroed(std::size_t words) {
  unsigned* p = nullptr;
  CHECK(cudaMalloc(&p, words * sizeof(unsigned)));
  CHECK(cudaMemset(p, 0, words * sizeof(unsigned)));
  return p;
}

// The grid's shape: 2 blocks per SM x 128 threads (all resident).
unsigned grid_blocks() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return 2u * static_cast<unsigned>(sms);
}
constexpr unsigned kThreads = 128;

// Failures of the message-passing check on one GPU, run twice on one state by `launch(state,
// payloads, failures, with_barrier)`: the grid barrier's kernel or the cluster grid barrier's.
template <class CheckLaunch>
unsigned check_failures(CheckLaunch launch, bool with_barrier) {
  const unsigned blocks = grid_blocks();
  gpubarrier::GridBarrierState s;
  CHECK(gpubarrier::make_grid_barrier(&s, nullptr, kWatchdogNs));
  Payloads p{};
  p.of[0] = zeroed(blocks * kThreads);
  p.members = 1;
  unsigned* failures = zeroed(1);
  // Two launches on one state: the second starts from the counter the first left.
  for (int launch_index = 0; launch_index < 2; ++launch_index) {
    CHECK(launch(s, p, failures, with_barrier ? 1 : 0));
    CHECK(cudaMemset(p.of[0], 0, blocks * kThreads * sizeof(unsigned)));
  }
  CHECK(cudaDeviceSynchronize());
  bool timed_out = false;
  CHECK(gpubarrier::grid_barrier_timed_out(s, nullptr, &timed_out));
  const unsigned f = read_word(failures) + (timed_out ? 1000000u : 0u);
  CHECK(gpubarrier::free_grid_barrier(&s, nullptr));
  CHECK(cudaFree(p.of[0]));
  CHECK(cudaFree(failures));
  return f;
}

// The grid barrier's check launch (the cluster grid barrier's: clustered_check below).
auto grid_check_launch() {
  return [](gpubarrier::GridBarrierState& s, Payloads& p, unsigned* failures, int with_barrier) {
    return gpubarrier::launch_cooperative(grid_check, grid_blocks(), kThreads, 0, nullptr, s, p,
                                          failures, with_barrier);
  };
}

// Failures of the message-passing check on one GPU with the grid barrier (or without it).
unsigned grid_failures(bool with_barrier) {
  return check_failures(grid_check_launch(), with_barrier);
}

// Whether this GPU launches thread-block clusters; the reason on stdout when not.
bool has_clusters() {
  int can = 0;
  CHECK(cudaDeviceGetAttribute(&can, cudaDevAttrClusterLaunch, 0));
  if (!can) std::printf("SKIP: GPU 0 launches no thread-block clusters (sm_90 or newer needed)\n");
  return can != 0;
}

// The cluster grid barrier's check launch, in clusters of `cluster_size` blocks.
auto clustered_check(unsigned cluster_size) {
  return [cluster_size](gpubarrier::GridBarrierState& s, Payloads& p, unsigned* failures,
                        int with_barrier) {
    return gpubarrier::launch_clustered(cluster_grid_check, grid_blocks(), cluster_size, kThreads,
                                        0, nullptr, s, p, failures, with_barrier);
  };
}

// Failures of the message-passing check on one GPU with the cluster grid barrier (or without it),
// in clusters of `cluster_size` blocks.
unsigned cluster_grid_failures(unsigned cluster_size, bool with_barrier) {
  return check_failures(clustered_check(cluster_size), with_barrier);
}

// Failures of the message-passing check across `members` GPUs with the device barrier.
unsigned device_failures(int members, bool with_barrier) {
  std::vector<int> devices(members);
  for (int g = 0; g < members; ++g) devices[g] = g;
  std::vector<gpubarrier::DeviceBarrierState> states(members);
  CHECK(gpubarrier::make_peer_device_barrier(devices.data(), members, states.data(), kWatchdogNs));
  const unsigned blocks = grid_blocks();
  Payloads p{};
  p.members = members;
  std::vector<unsigned*> failures(members);
  std::vector<cudaStream_t> streams(members);
  for (int g = 0; g < members; ++g) {
    CHECK(cudaSetDevice(g));
    p.of[g] = zeroed(blocks * kThreads);
    failures[g] = zeroed(1);
    CHECK(cudaStreamCreate(&streams[g]));
  }
  for (int g = 0; g < members; ++g) {
    CHECK(cudaSetDevice(g));
    Payloads mine = p;
    mine.member = g;
    CHECK(gpubarrier::launch_cooperative(device_check, blocks, kThreads, 0, streams[g], states[g],
                                         mine, failures[g], with_barrier ? 1 : 0));
  }
  unsigned total = 0;
  for (int g = 0; g < members; ++g) {
    CHECK(cudaSetDevice(g));
    bool timed_out = false;
    CHECK(gpubarrier::device_barrier_timed_out(states[g], streams[g], &timed_out));
    total += read_word(failures[g]) + (timed_out ? 1000000u : 0u);
    CHECK(cudaFree(p.of[g]));
    CHECK(cudaFree(failures[g]));
    CHECK(cudaStreamDestroy(streams[g]));
  }
  CHECK(gpubarrier::free_peer_device_barrier(devices.data(), members, states.data()));
  CHECK(cudaSetDevice(0));
  return total;
}

int expect(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  return ok ? 0 : 1;
}

int grid_contract() {
  const unsigned f = grid_failures(true);
  return expect(f == 0, "grid barrier: every payload of the round seen after it (" +
                            std::to_string(f) + " stale reads)");
}

int grid_without_barrier() {
  const unsigned f = grid_failures(false);
  return expect(f > 0, "without the grid barrier the check sees stale payloads (" +
                           std::to_string(f) + " stale reads)");
}

// The watchdog: `absent(state, passed)` launches a grid one part of which never arrives, and
// the wait must end with no block passed and grid_barrier_timed_out saying so; after a reset the
// same state serves a healthy launch of `check`. `who`: what never arrives.
template <class AbsentLaunch, class CheckLaunch>
int watchdog_case(AbsentLaunch absent, CheckLaunch check, const std::string& who) {
  gpubarrier::GridBarrierState s;
  CHECK(gpubarrier::make_grid_barrier(&s, nullptr, 50'000'000ull));  // 50 ms
  unsigned* passed = zeroed(1);
  CHECK(absent(s, passed));
  CHECK(cudaDeviceSynchronize());
  bool timed_out = false;
  CHECK(gpubarrier::grid_barrier_timed_out(s, nullptr, &timed_out));
  int bad = expect(timed_out && read_word(passed) == 0,
                   "a " + who +
                       " that never arrives: the watchdog ends the wait, no block "
                       "passes, grid_barrier_timed_out says so");
  CHECK(gpubarrier::reset_grid_barrier(s, nullptr));
  Payloads p{};
  p.of[0] = zeroed(grid_blocks() * kThreads);
  p.members = 1;
  unsigned* failures = zeroed(1);
  CHECK(check(s, p, failures, 1));
  CHECK(gpubarrier::grid_barrier_timed_out(s, nullptr, &timed_out));
  bad |= expect(!timed_out && read_word(failures) == 0, "after reset_grid_barrier it works again");
  CHECK(gpubarrier::free_grid_barrier(&s, nullptr));
  return bad;
}

int grid_watchdog() {
  return watchdog_case(
      [](gpubarrier::GridBarrierState& s, unsigned* passed) {
        return gpubarrier::launch_cooperative(grid_absent, grid_blocks(), kThreads, 0, nullptr, s,
                                              passed);
      },
      grid_check_launch(), "block");
}

int residency_refusal() {
  unsigned fit = 0;
  CHECK(gpubarrier::max_resident_blocks(mark, 1024, 0, &fit));
  unsigned* ran = zeroed(1);
  const cudaError_t too_many = gpubarrier::launch_cooperative(mark, fit + 1, 1024, 0, nullptr, ran);
  CHECK(cudaDeviceSynchronize());
  int bad = expect(too_many == cudaErrorCooperativeLaunchTooLarge && read_word(ran) == 0,
                   "one block more than can be resident: refused (" +
                       std::string(cudaGetErrorName(too_many)) + "), nothing launched");
  bad |= expect(
      gpubarrier::check_residency(mark, fit, 1024, 0) == cudaSuccess &&
          gpubarrier::check_residency(mark, fit + 1, 1024, 0) == cudaErrorCooperativeLaunchTooLarge,
      "check_residency accepts " + std::to_string(fit) + " blocks, refuses one more");
  CHECK(cudaFree(ran));
  return bad;
}

constexpr unsigned kClusterSizes[] = {2, 4, 8};

int cluster_grid_contract() {
  if (!has_clusters()) return kSkip;
  int bad = 0;
  for (const unsigned size : kClusterSizes) {
    const unsigned f = cluster_grid_failures(size, true);
    bad |= expect(f == 0, "cluster grid barrier, clusters of " + std::to_string(size) +
                              ": every payload of the round seen after it (" + std::to_string(f) +
                              " stale reads)");
  }
  return bad;
}

int cluster_grid_without_barrier() {
  if (!has_clusters()) return kSkip;
  const unsigned f = cluster_grid_failures(2, false);
  return expect(f > 0, "without the cluster grid barrier the check sees stale payloads (" +
                           std::to_string(f) + " stale reads)");
}

int cluster_grid_watchdog() {
  if (!has_clusters()) return kSkip;
  const unsigned size = 2;
  return watchdog_case(
      [size](gpubarrier::GridBarrierState& s, unsigned* passed) {
        return gpubarrier::launch_clustered(cluster_grid_absent, grid_blocks(), size, kThreads, 0,
                                            nullptr, s, size, passed);
      },
      clustered_check(size), "cluster");
}

int cluster_residency_refusal() {
  if (!has_clusters()) return kSkip;
  const unsigned size = 2, threads = 1024;
  unsigned fit = 0;
  CHECK(gpubarrier::max_resident_clusters(mark, size, threads, 0, &fit));
  unsigned* ran = zeroed(1);
  const cudaError_t too_many =
      gpubarrier::launch_clustered(mark, (fit + 1) * size, size, threads, 0, nullptr, ran);
  const cudaError_t uneven =
      gpubarrier::launch_clustered(mark, size + 1, size, threads, 0, nullptr, ran);
  CHECK(cudaDeviceSynchronize());
  int bad = expect(too_many == cudaErrorCooperativeLaunchTooLarge &&
                       uneven == cudaErrorInvalidValue && read_word(ran) == 0,
                   "one cluster more than can be resident: refused (" +
                       std::string(cudaGetErrorName(too_many)) +
                       "); a grid that is no multiple of the cluster size: refused (" +
                       cudaGetErrorName(uneven) + "); nothing launched");
  bad |=
      expect(gpubarrier::check_cluster_residency(mark, fit * size, size, threads, 0) == cudaSuccess,
             "check_cluster_residency accepts " + std::to_string(fit) + " clusters of " +
                 std::to_string(size));
  CHECK(cudaFree(ran));
  return bad;
}

int device_contract(int members) {
  if (gpus() < members) {
    std::printf("SKIP: needs %d GPUs, %d visible\n", members, gpus());
    return kSkip;
  }
  for (int i = 0; i < members; ++i)
    for (int j = 0; j < members; ++j) {
      int can = 1;
      if (i != j) CHECK(cudaDeviceCanAccessPeer(&can, i, j));
      if (!can) {
        std::printf("SKIP: GPU %d cannot reach GPU %d by peer access\n", i, j);
        return kSkip;
      }
    }
  const unsigned f = device_failures(members, true);
  int bad = expect(f == 0, "device barrier on " + std::to_string(members) +
                               " GPU(s): every payload seen after it (" + std::to_string(f) +
                               " stale reads)");
  const unsigned without = device_failures(members, false);
  bad |= expect(without > 0, "without it the check sees stale payloads (" +
                                 std::to_string(without) + " stale reads)");
  return bad;
}

int device_watchdog() {
  int device = 0;
  std::vector<gpubarrier::DeviceBarrierState> states(1);
  CHECK(gpubarrier::make_peer_device_barrier(&device, 1, states.data(), 50'000'000ull));
  unsigned* passed = zeroed(1);
  CHECK(gpubarrier::launch_cooperative(device_absent, grid_blocks(), kThreads, 0, nullptr,
                                       states[0], passed));
  bool timed_out = false;
  CHECK(gpubarrier::device_barrier_timed_out(states[0], nullptr, &timed_out));
  const int bad = expect(timed_out && read_word(passed) == 0,
                         "device barrier: a block that never arrives ends in the watchdog");
  CHECK(gpubarrier::free_peer_device_barrier(&device, 1, states.data()));
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string c = argc > 1 ? argv[1] : "";
  const char* const cases[] = {"grid_contract",         "grid_without_barrier",
                               "grid_watchdog",         "residency_refusal",
                               "cluster_grid_contract", "cluster_grid_without_barrier",
                               "cluster_grid_watchdog", "cluster_residency_refusal",
                               "device_contract_1gpu",  "device_contract_2gpu",
                               "device_watchdog"};
  if (std::find(std::begin(cases), std::end(cases), c) == std::end(cases)) {
    std::fprintf(stderr, "usage: %s CASE; CASE is one of:", argv[0]);
    for (const char* k : cases) std::fprintf(stderr, " %s", k);
    std::fprintf(stderr, "\n");
    return 2;
  }
  if (gpus() == 0) {
    std::printf("SKIP: no CUDA GPU visible\n");
    return kSkip;
  }
  if (c == "grid_contract") return grid_contract();
  if (c == "grid_without_barrier") return grid_without_barrier();
  if (c == "grid_watchdog") return grid_watchdog();
  if (c == "residency_refusal") return residency_refusal();
  if (c == "cluster_grid_contract") return cluster_grid_contract();
  if (c == "cluster_grid_without_barrier") return cluster_grid_without_barrier();
  if (c == "cluster_grid_watchdog") return cluster_grid_watchdog();
  if (c == "cluster_residency_refusal") return cluster_residency_refusal();
  if (c == "device_contract_1gpu") return device_contract(1);
  if (c == "device_contract_2gpu") return device_contract(2);
  return device_watchdog();
}
