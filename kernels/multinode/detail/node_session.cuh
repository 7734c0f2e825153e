// One configuration of multinode.hierarchical with network=0 on this rank: the node's barrier
// words (BarrierMemory over the node's GPUs only: CUDA IPC never crosses a node), the node's
// host-mapped proxy words (HostShared: one segment per node), the kernel launch and, on the
// node's leader rank, the host proxy on the main thread.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "multinode/detail/node_gather.cuh"
#include "multinode/device_network.hpp"
#include "runtime/barrier_memory.cuh"
#include "runtime/host_shared.hpp"
#include "runtime/node_proxy.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// The problems of a node-aware session (NodeCrossings::problems): BarrierMemory's, then the
// blocks that passed early, as this rank's GPU counted them; `gave_up`: this rank's own network
// part gave up (counted with the expired spins). The largest of each over the ranks.
template <class Algo>
std::vector<double> node_problems(const RunContext& ctx, const Team& team, const BarrierMemory& mem,
                                  bool gave_up) {
  std::vector<double> bad = mem.problems();
  unsigned early = 0;  // mpi mode: one local member
  team.parallel([&](int l) {
    GB_CUDA_CHECK(cudaMemcpy(&early, mem.args(l).own + Algo::early_offset(), sizeof early,
                             cudaMemcpyDeviceToHost));
  });
  std::vector<double> mine{static_cast<double>(early), gave_up ? 1.0 : 0.0};
  ctx.max_over_ranks(mine);
  bad[1] += mine[1];
  bad.push_back(mine[0]);
  return bad;
}

class NodeSession final : public NodeCrossings {
 public:
  NodeSession(const RunContext& ctx, const Team& team, const Point& p)
      : ctx_(ctx),
        team_(team),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(blocks_per_gpu(team, p)),
        host_(team, sizeof(ProxyWords)),
        mem_(ctx, team, p, blocks_, sizeof(NodeHierarchical::Words), Span::node) {
    args_.host = static_cast<ProxyWords*>(host_.device_view(0));
  }

  // Verification: the stamp and payload check among the node's GPUs, the late block going round
  // every GPU of every node, the blocks' host-release check, and the proxies crossing with
  // MPI_Allreduce(MIN) of the epoch seen arrive (a node that never arrived stops every proxy).
  // Timing: none of it, and MPI_Barrier.
  void set_checking(bool on) override {
    mem_.set_checking(on);
    checking_ = on;
  }

  // `reps` crossings; seconds from the launch to the end of the wait (the proxy included).
  double run(long reps) override {
    proxy_ = {};
    return mem_.run(reps, [&](int l, BarrierArgs& a) {
      std::exception_ptr failed;
      try {
        void* params[] = {&a, &args_};
        GB_CUDA_CHECK(cudaLaunchCooperativeKernel(
            reinterpret_cast<const void*>(barrier_kernel<NodeHierarchical>), blocks_, threads_,
            params, 0, team_.stream(l)));
      } catch (...) {
        failed = std::current_exception();
      }
      // The other leaders meet this one in every epoch's crossing, launched or not.
      if (team_.node_leader())
        proxy_ = run_node_proxy(team_, static_cast<ProxyWords*>(host_.host()), a.epoch0 + 1,
                                a.epoch0 + static_cast<Word>(reps), ctx_.options.watchdog_s,
                                checking_ ? ProxyCrossing::min_arrived : ProxyCrossing::barrier,
                                !failed);
      if (failed) std::rethrow_exception(failed);
      GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(l)));
    });
  }

  // A proxy that gave up or saw a node missing counts as an expired spin.
  std::vector<double> problems() const override {
    return node_problems<NodeHierarchical>(ctx_, team_, mem_, !proxy_.detail().empty());
  }

  std::string timeout_detail() const override {
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU or a node never reached the barrier" +
           (proxy_.detail().empty() ? "" : " (this rank's proxy: " + proxy_.detail() + ")");
  }
  std::string network_note() const override { return "host proxy, MPI_Barrier"; }
  int blocks() const override { return blocks_; }

 private:
  const RunContext& ctx_;
  const Team& team_;
  int threads_;
  int blocks_;
  HostShared host_;
  BarrierMemory mem_;
  NodeHierarchical::Args args_;
  bool checking_ = false;
  ProxyOutcome proxy_;
};

}  // namespace gb::mg
