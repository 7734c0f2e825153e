// launch=1 of the device barriers (host side): one kernel launch per barrier crossing, `reps`
// launches captured once into a CUDA graph per GPU and replayed, as a framework that launches one
// barrier kernel per step does (PyTorch's symmetric-memory barrier: multigpu.torch.symm-barrier).
// The kernel (frame/crossing.cuh, barrier_step_kernel) reads its epoch from a device word of its
// GPU that it advances itself, so a graph captured once stays right however often it replays.
// Captures happen in prepare(), outside any timed region; a graph is kept per (reps, checking):
// the check's launches carry other arguments (the stamps) than the timed ones.
#pragma once

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "multigpu/frame/crossing.cuh"
#include "runtime/team.hpp"

namespace gb::mg {

class StepGraphs {
 public:
  // One epoch word per local GPU, zero: no barrier completed on fresh barrier memory.
  explicit StepGraphs(const Team& team)
      : team_(team), epochs_(static_cast<std::size_t>(team.local_count()), nullptr) {
    try {
      team.parallel([&](int l) {
        GB_CUDA_CHECK(cudaMalloc(&epochs_[l], sizeof(Word)));
        GB_CUDA_CHECK(cudaMemset(epochs_[l], 0, sizeof(Word)));
      });
    } catch (...) {
      release();
      throw;
    }
  }
  ~StepGraphs() { release(); }
  StepGraphs(const StepGraphs&) = delete;
  StepGraphs& operator=(const StepGraphs&) = delete;

  // Makes the graphs of `reps` launches unless they exist: launch_one(l, epoch) enqueues one
  // launch of the step kernel for local member l on team.stream(l), captured here.
  void prepare(long reps, bool checking,
               const std::function<void(int local, Word* epoch)>& launch_one) {
    const Key key{reps, checking};
    if (graphs_.count(key)) return;
    std::vector<cudaGraphExec_t>& execs =
        graphs_.emplace(key, std::vector<cudaGraphExec_t>(epochs_.size(), nullptr)).first->second;
    try {
      team_.parallel([&](int l) { execs[l] = capture(l, reps, launch_one); });
    } catch (...) {
      destroy(execs);
      graphs_.erase(key);
      throw;
    }
  }

  // Replays local member l's graph of `reps` launches (prepared) and waits for it.
  void replay(int local, long reps, bool checking) const {
    GB_CUDA_CHECK(cudaGraphLaunch(graphs_.at(Key{reps, checking})[local], team_.stream(local)));
    GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(local)));
  }

 private:
  cudaGraphExec_t capture(int l, long reps,
                          const std::function<void(int local, Word* epoch)>& launch_one) {
    const cudaStream_t s = team_.stream(l);
    cudaGraph_t graph = nullptr;
    // Thread-local: the other members' threads capture on their own GPUs at the same time.
    GB_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
      for (long r = 0; r < reps; ++r) launch_one(l, epochs_[l]);
    } catch (...) {
      cudaStreamEndCapture(s, &graph);  // ends the capture; the partial graph is dropped
      if (graph) cudaGraphDestroy(graph);
      throw;
    }
    GB_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    GB_CUDA_CHECK(made);
    if (const cudaError_t up = cudaGraphUpload(exec, s); up != cudaSuccess) {
      cudaGraphExecDestroy(exec);
      GB_CUDA_CHECK(up);
    }
    return exec;
  }

  // Teardown: errors are not raised from here (a failed member's are raised already).
  void destroy(std::vector<cudaGraphExec_t>& execs) {
    for (int l = 0; l < team_.local_count(); ++l)
      if (execs[l]) {
        cudaSetDevice(team_.device(l));
        cudaGraphExecDestroy(execs[l]);
        execs[l] = nullptr;
      }
  }
  void release() {
    for (auto& [key, execs] : graphs_) destroy(execs);
    for (int l = 0; l < team_.local_count(); ++l)
      if (epochs_[l]) {
        cudaSetDevice(team_.device(l));
        cudaFree(epochs_[l]);
      }
  }

  using Key = std::pair<long, bool>;
  const Team& team_;
  std::vector<Word*> epochs_;
  std::map<Key, std::vector<cudaGraphExec_t>> graphs_;
};

}  // namespace gb::mg
