#include <cooperative_groups.h>

#include <string>
#include <vector>

#include "reduction.hpp"
#include "reduction/fill.cuh"
#include "reduction/grid_sum.cuh"

namespace legacy {
namespace {

constexpr int kThreads = 1024;  // per block, as gpubarrier's own reductions

// Every GPU: its share's sum into its slot (grid.sync inside), the multi-grid sync, then block 0
// of GPU 0 sums the slots. The sync's fences publish the slot writes (the study's Fig. 13).
__global__ void multi_grid_reduction(ReductionArgs a) {
  cooperative_groups::multi_grid_group all = cooperative_groups::this_multi_grid();
  const unsigned me = all.grid_rank(), members = all.num_grids();
  gb::reduction::grid_sum(a.data, a.n, a.partials, a.slots + me);
  all.sync();
  if (me == 0 && blockIdx.x == 0) gb::reduction::block_total(a.slots, members, a.slots + members);
}

}  // namespace

Reduction::Reduction(const Devices& devices, long bytes) : devices_(devices), bytes_(bytes) {
  const int members = devices.count();
  if (bytes < 8 || bytes % 8 != 0 || bytes / 8 < members)
    throw Failure("reduce: bytes=" + std::to_string(bytes) +
                  " must be whole doubles, at least one per GPU");
  devices.enable_peer_access("each GPU writes its share's sum into GPU 0's memory");
  LEGACY_CHECK(cudaSetDevice(devices.id(0)));
  int per_sm = 0;
  LEGACY_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, reinterpret_cast<const void*>(multi_grid_reduction), kThreads, 0));
  if (per_sm < 1)
    throw Unsupported("no block of " + std::to_string(kThreads) +
                      " threads of the reduction kernel fits on an SM");
  blocks_ = per_sm * devices.sms();
  // Shares as gpubarrier's multi-GPU reductions split the array: contiguous, member m holds
  // [total * m / members, total * (m + 1) / members).
  const auto total = static_cast<std::uint64_t>(bytes) / 8;
  try {
    for (int m = 0; m < members; ++m) {
      LEGACY_CHECK(cudaSetDevice(devices.id(m)));
      const std::uint64_t first = total * m / members, last = total * (m + 1) / members;
      Share s;
      s.n = last - first;
      shares_.push_back(s);
      LEGACY_CHECK(cudaMalloc(&shares_.back().data, s.n * sizeof(double)));
      LEGACY_CHECK(cudaMalloc(&shares_.back().partials, blocks_ * sizeof(double)));
      gb::reduction::fill_kernel<double>
          <<<devices.sms() * 4, 256>>>(shares_.back().data, s.n, first);
      LEGACY_CHECK(cudaGetLastError());
    }
    LEGACY_CHECK(cudaSetDevice(devices.id(0)));
    LEGACY_CHECK(cudaMalloc(&slots_, (members + 1) * sizeof(double)));
    for (int m = 0; m < members; ++m) {
      LEGACY_CHECK(cudaSetDevice(devices.id(m)));
      LEGACY_CHECK(cudaDeviceSynchronize());
    }
  } catch (...) {
    release();
    throw;
  }
  for (const Share& s : shares_) args_.push_back({s.data, s.n, s.partials, slots_});
  for (ReductionArgs& a : args_) arg_ptrs_.push_back(&a);
  for (void*& p : arg_ptrs_) params_.push_back(&p);
}

Reduction::~Reduction() {
  release();
}

void Reduction::release() {
  for (std::size_t m = 0; m < shares_.size(); ++m) {
    cudaSetDevice(devices_.id(static_cast<int>(m)));
    cudaFree(shares_[m].data);
    cudaFree(shares_[m].partials);
  }
  shares_.clear();
  if (slots_) {
    cudaSetDevice(devices_.id(0));
    cudaFree(slots_);
    slots_ = nullptr;
  }
}

double Reduction::sum() {
  const int members = devices_.count();
  LEGACY_CHECK(cudaSetDevice(devices_.id(0)));
  // Slots and result zeroed: a GPU that never wrote its slot leaves a wrong sum. The kernels run
  // on non-blocking streams, which do not wait for the default stream's memset.
  LEGACY_CHECK(cudaMemset(slots_, 0, (members + 1) * sizeof(double)));
  LEGACY_CHECK(cudaDeviceSynchronize());
  run();
  double result = 0;
  LEGACY_CHECK(cudaSetDevice(devices_.id(0)));
  LEGACY_CHECK(cudaMemcpy(&result, slots_ + members, sizeof result, cudaMemcpyDeviceToHost));
  return result;
}

std::vector<double> Reduction::steps(long warmup, long steps) {
  for (long i = 0; i < warmup; ++i) run();
  std::vector<double> ns;
  for (long i = 0; i < steps; ++i) {
    const auto t0 = Clock::now();
    run();
    ns.push_back(seconds_since(t0) * 1e9);
  }
  return ns;
}

void Reduction::run() const {
  devices_.launch(reinterpret_cast<const void*>(multi_grid_reduction), dim3(blocks_),
                  dim3(kThreads), params_);
  devices_.wait();
}

}  // namespace legacy
