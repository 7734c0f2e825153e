// One configuration of multinode.hierarchical on this rank (a State resource: verify() and
// measure() share it): the node's barrier words (BarrierMemory over the node's GPUs only: CUDA
// IPC never crosses a node), the node's host-mapped proxy words (HostShared: one segment per
// node), the kernel launch and, on the node's leader rank, the host proxy on the main thread.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "multigpu/detail/barrier_memory.cuh"
#include "multinode/detail/node_gather.cuh"
#include "team/host_shared.hpp"
#include "team/node_proxy.hpp"
#include "team/team.hpp"

namespace gb::mg {

class NodeSession {
 public:
  // Indices of problems(): BarrierMemory's three, then the check's early passes.
  static constexpr std::size_t kEarly = 3;

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
  void set_checking(bool on) {
    mem_.set_checking(on);
    checking_ = on;
  }

  // `reps` crossings; seconds from the launch to the end of the wait (the proxy included).
  double run(long reps) {
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

  // {stale stamps, expired spins (a proxy that gave up or saw a node missing counts as one),
  // stale payload words, early passes} so far, the largest per rank.
  std::vector<double> problems() const {
    std::vector<double> bad = mem_.problems();
    unsigned early = 0;
    team_.parallel([&](int l) {
      const char* own = mem_.args(l).own;
      GB_CUDA_CHECK(cudaMemcpy(&early, own + NodeHierarchical::early_offset(), sizeof early,
                               cudaMemcpyDeviceToHost));
    });
    std::vector<double> mine{static_cast<double>(early), proxy_.detail().empty() ? 0.0 : 1.0};
    ctx_.max_over_ranks(mine);
    bad[1] += mine[1];
    bad.push_back(mine[0]);
    return bad;
  }

  std::string timeout_detail() const {
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU or a node never reached the barrier" +
           (proxy_.detail().empty() ? "" : " (this rank's proxy: " + proxy_.detail() + ")");
  }
  int blocks() const { return blocks_; }

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
