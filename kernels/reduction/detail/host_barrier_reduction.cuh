// The multi-GPU reductions over a host barrier (the study (Zhang, Wahib, Zhang, Matsuoka), Fig.
// 14): each GPU sums its share in one cooperative kernel into its slot in GPU 0's memory (over peer
// access, CUDA IPC in mpi mode), its host thread or rank waits for the stream and meets the others
// at the host barrier `Meet` (Meet::wait(team, local), which must not throw), then member 0 sums
// the slots on GPU 0.
#pragma once

#include <string>

#include "reduction/multi_reduction.cuh"

namespace gb::reduction {

template <class Meet>
class HostBarrierSession {
 public:
  HostBarrierSession(const RunContext&, const mg::Team& team, Shares& shares, const Point&)
      : team_(team), shares_(shares), slots_(team) {}

  void reduce(int l) {
    const cudaStream_t s = team_.stream(l);
    team_.guard(l, [&] {
      shares_.launch_share_sum(l, slots_.mine(l), s);
      GB_CUDA_CHECK(cudaStreamSynchronize(s));
    });
    Meet::wait(team_, l);
    if (team_.member(l) != 0) return;
    team_.guard(l, [&] {
      launch_total(slots_.at(l), team_.size(), shares_.input(l).out.get(), s);
      GB_CUDA_CHECK(cudaStreamSynchronize(s));
    });
  }

  // Meet waits on the host, and no device-side wait of its own can give up.
  std::string expired() const { return {}; }
  std::string note() const { return Meet::note(); }

 private:
  const mg::Team& team_;
  const Shares& shares_;
  Slots slots_;
};

}  // namespace gb::reduction
