#include <cooperative_groups.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "multi_grid.hpp"

namespace legacy {
namespace {

constexpr int kMaxGpus = 64;
// A late participant waits this long before its stamp: far longer than a sync, so that a sync
// that let anyone through early is seen.
constexpr unsigned kLateNs = 20000;

struct SyncArgs {
  unsigned* stamps[kMaxGpus];  // each GPU's per-block stamps; null while timing
  unsigned* stale;             // this GPU's count of stale stamps
  long reps;
  bool absent;  // test only: this GPU's block 0 never arrives (the sync then hangs in CUDA)
};

__global__ void multi_grid_kernel(SyncArgs a) {
  cooperative_groups::multi_grid_group all = cooperative_groups::this_multi_grid();
  const unsigned me = all.grid_rank(), members = all.num_grids();
  const bool checking = a.stamps[0] != nullptr;
  if (a.absent && blockIdx.x == 0) return;
  for (long r = 1; r <= a.reps; ++r) {
    if (checking && threadIdx.x == 0) {
      // One block of one GPU comes late: every GPU in turn, a different block each time, so a
      // sync that forgets a participant lets someone read its stale stamp.
      if (me == r % members && blockIdx.x == (r * 7919) % gridDim.x) __nanosleep(kLateNs);
      *static_cast<volatile unsigned*>(a.stamps[me] + blockIdx.x) = static_cast<unsigned>(r);
    }
    all.sync();
    if (!checking) continue;
    unsigned bad = 0;
    for (unsigned i = threadIdx.x; i < members * gridDim.x; i += blockDim.x)
      bad += static_cast<volatile unsigned*>(a.stamps[i / gridDim.x])[i % gridDim.x] < r;
    if (bad) atomicAdd(a.stale, bad);
  }
}

}  // namespace

std::string multi_grid_residency(int blocks_per_sm, int threads) {
  return residency_problem(reinterpret_cast<const void*>(multi_grid_kernel),
                           "the multi-grid kernel", blocks_per_sm, threads);
}

MultiGrid::MultiGrid(const Devices& devices, int blocks_per_sm, int threads)
    : devices_(devices), blocks_(blocks_per_sm * devices.sms()), threads_(threads) {
  // TEST-ONLY (tests/gpu/test_legacy_gpu.py): a participant that never arrives, so that the test
  // sees gpubarrier's host-side deadline kill this process and the sweep go on.
  const char* hang = std::getenv("GPUBARRIER_LEGACY_TEST_HANG");
  test_hang_ = hang && std::string(hang) == "1";
  if (devices.count() > kMaxGpus) throw Unsupported("at most 64 GPUs");
  devices.enable_peer_access();
  for (int i = 0; i < devices.count(); ++i) {
    LEGACY_CHECK(cudaSetDevice(devices.id(i)));
    unsigned* p = nullptr;
    LEGACY_CHECK(cudaMalloc(&p, (blocks_ + 1) * sizeof(unsigned)));
    stamps_.push_back(p);
  }
}

MultiGrid::~MultiGrid() {
  for (unsigned* p : stamps_) cudaFree(p);
}

long MultiGrid::check(long crossings) {
  for (int i = 0; i < devices_.count(); ++i) {
    LEGACY_CHECK(cudaSetDevice(devices_.id(i)));
    LEGACY_CHECK(cudaMemset(stamps_[i], 0, (blocks_ + 1) * sizeof(unsigned)));
    // The kernels run on non-blocking streams, which do not wait for the default stream's memset.
    LEGACY_CHECK(cudaDeviceSynchronize());
  }
  run(crossings, true);
  long stale = 0;
  for (int i = 0; i < devices_.count(); ++i) {
    unsigned v = 0;
    LEGACY_CHECK(cudaMemcpy(&v, stamps_[i] + blocks_, sizeof v, cudaMemcpyDeviceToHost));
    stale += v;
  }
  return stale;
}

double MultiGrid::sync(long reps) {
  return run(reps, false);
}

double MultiGrid::run(long reps, bool checking) {
  std::vector<SyncArgs> args(devices_.count());
  std::vector<void*> one_param(devices_.count());
  std::vector<void**> params(devices_.count());
  for (int i = 0; i < devices_.count(); ++i) {
    for (int m = 0; m < devices_.count(); ++m) args[i].stamps[m] = checking ? stamps_[m] : nullptr;
    args[i].stale = stamps_[i] + blocks_;
    args[i].reps = reps;
    args[i].absent = i == 0 && test_hang_;
    one_param[i] = &args[i];
    params[i] = &one_param[i];
  }
  const auto t0 = Clock::now();
  devices_.launch(reinterpret_cast<const void*>(multi_grid_kernel), dim3(blocks_), dim3(threads_),
                  params);
  devices_.wait();
  return seconds_since(t0);
}

}  // namespace legacy
