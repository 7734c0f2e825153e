// The study's multi-GPU reduction with an explicit barrier (Zhang et al., Figs. 13 and 16): a
// double array spread over the GPUs of one configuration; one kernel, launched on every GPU by
// cudaLaunchCooperativeKernelMultiDevice, sums each GPU's share over its grid (grid.sync), writes
// it into GPU 0's memory over peer access, crosses this_multi_grid().sync(), and GPU 0 sums the
// partial sums. The data set, its split into shares and the kernels' building blocks are
// gpubarrier's own (kernels/reduction/); the exact-sum check is gpubarrier's side.
#pragma once

#include <cstdint>
#include <vector>

#include "helper.hpp"

namespace legacy {

// The reduction kernel's parameter on one GPU.
struct ReductionArgs {
  const double* data;  // this GPU's share
  std::uint64_t n;
  double* partials;  // this GPU's per-block sums
  double* slots;     // GPU 0's: one per GPU, then the result
};

class Reduction {
 public:
  // The array of `bytes` bytes (whole doubles, at least one per GPU), filled on every GPU.
  // Throws Unsupported when the GPUs cannot reach GPU 0's memory.
  Reduction(const Devices& devices, long bytes);
  ~Reduction();
  Reduction(const Reduction&) = delete;
  Reduction& operator=(const Reduction&) = delete;

  long bytes() const { return bytes_; }
  int blocks() const { return blocks_; }  // per GPU, 1024 threads each
  // One whole reduction from a zeroed result: GPU 0's sum of the whole array.
  double sum();
  // `steps` timed reductions (multi-device launch + the wait for every GPU) after `warmup`
  // untimed ones; ns per step.
  std::vector<double> steps(long warmup, long steps);

 private:
  void run() const;  // one launch + the wait
  void release();

  const Devices& devices_;
  long bytes_;
  int blocks_ = 0;
  struct Share {
    double* data = nullptr;
    std::uint64_t n = 0;
    double* partials = nullptr;  // `blocks_` per-block sums
  };
  std::vector<Share> shares_;
  double* slots_ = nullptr;  // on GPU 0: one per GPU, then the result
  // The launch's parameters, made once: a timed step only launches and waits.
  std::vector<ReductionArgs> args_;
  std::vector<void*> arg_ptrs_;
  std::vector<void**> params_;
};

}  // namespace legacy
