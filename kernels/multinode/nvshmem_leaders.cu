// multinode.hierarchical's network=1: one configuration with the node leaders' GPUs
// crossing through NVSHMEM signals from the device (detail/nvshmem_net.cuh). Provided to the
// method (hierarchical.cu) through device_network() when gpubarrier is built with NVSHMEM
// (cmake/Nvshmem.cmake). Every rank is a PE (src/runtime/nvshmem_runtime.hpp); the GPUs of a
// node gather over CUDA IPC as in network=0, so NVSHMEM carries only the leaders' signals.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <memory>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "errors/errors.hpp"
#include "multinode/detail/node_session.cuh"
#include "multinode/detail/nvshmem_net.cuh"
#include "multinode/device_network.hpp"
#include "runtime/barrier_memory.cuh"
#include "runtime/nvshmem_runtime.hpp"

namespace gb::mg {
// A named namespace: State holds the session (a template of default visibility), which a type
// of internal linkage would warn about in this -rdc target.
namespace nvshmem_leaders {

// The leaders' symmetric words, allocated once per process (a collective allocation per point
// would make teardown collective too). Each session starts its epochs past every earlier
// session's: every rank runs the same crossings, so every rank agrees on the base.
struct SharedWords {
  NvshmemNet::Sym* sym = nullptr;
  Word used = 0;
};

SharedWords& shared_words(const RunContext& ctx, const Team& team) {
  static SharedWords words;
  if (words.sym) return words;
  std::string why;
  try {
    nvshmem::Runtime::get(ctx, team);
  } catch (const std::exception& e) {
    why = e.what();
  }
  // Every rank or none: a rank whose NVSHMEM did not start stops the others here.
  if (ctx.max_over_ranks(why.empty() ? 0.0 : 1.0) > 0)
    throw NetworkUnavailable("network=1: NVSHMEM could not connect the ranks (" +
                             (why.empty() ? std::string("on another rank") : why) +
                             "); across nodes it needs an InfiniBand/RoCE NIC with GPUDirect "
                             "RDMA (IBGDA) or a remote transport NVSHMEM supports");
  words.sym = static_cast<NvshmemNet::Sym*>(nvshmem_calloc(1, sizeof(NvshmemNet::Sym)));
  if (!words.sym) throw Error("nvshmem_calloc of the node leaders' words failed");
  nvshmem_barrier_all();  // every PE's words are zero before any kernel signals them
  return words;
}

class LeadersSession final : public NodeCrossings {
 public:
  LeadersSession(const RunContext& ctx, const Team& team, const Point& p)
      : ctx_(ctx),
        team_(team),
        words_(shared_words(ctx, team)),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(blocks_per_gpu(team, p)),
        mem_(ctx, team, p, blocks_, sizeof(NodeNvshmem::Words), Span::node) {
    args_.sym = words_.sym;
    args_.base = words_.used;
    args_.leader = team.node();
    args_.leaders = team.nodes();
    for (int n = 0; n < team.nodes(); ++n) args_.pe[n] = team.layout().leaders[n];  // PE = rank
    const int next = args_.pe[(args_.leader + 1) % args_.leaders];
    reach_ = team.nodes() < 2 ? "no other node"
                              : nvshmem::Runtime::reach(&words_.sym->round[0], next);
  }
  ~LeadersSession() override { words_.used += crossed_; }
  LeadersSession(const LeadersSession&) = delete;
  LeadersSession& operator=(const LeadersSession&) = delete;

  void set_checking(bool on) override { mem_.set_checking(on); }

  double run(long reps) override {
    crossed_ += static_cast<Word>(reps);
    return mem_.run(reps, [&](int l, BarrierArgs& a) {
      void* params[] = {&a, &args_};
      GB_CUDA_CHECK(
          cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(barrier_kernel<NodeNvshmem>),
                                      blocks_, threads_, params, 0, team_.stream(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(l)));
    });
  }

  std::vector<double> problems() const override {
    return node_problems<NodeNvshmem>(ctx_, team_, mem_, false);
  }
  std::string timeout_detail() const override {
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU or a node never reached the barrier (NVSHMEM signals between the "
           "node leaders)";
  }
  std::string network_note() const override {
    return "device-initiated, NVSHMEM signals between the node leaders (" + reach_ + ")";
  }
  int blocks() const override { return blocks_; }

 private:
  const RunContext& ctx_;
  const Team& team_;
  SharedWords& words_;
  int threads_;
  int blocks_;
  BarrierMemory mem_;
  NvshmemNet::Args args_;
  Word crossed_ = 0;
  std::string reach_;
};

std::string problem(const RunContext& ctx, const Point&) {
  if (ctx.launch.nodes > NvshmemNet::kMaxLeaders)
    return "network=1: at most " + std::to_string(NvshmemNet::kMaxLeaders) + " nodes";
  return "";
}

std::unique_ptr<NodeCrossings> open(const RunContext& ctx, const Team& team, const Point& p) {
  return std::make_unique<LeadersSession>(ctx, team, p);
}

const DeviceNetwork kNetwork{reinterpret_cast<const void*>(barrier_kernel<NodeNvshmem>), problem,
                             open};
[[maybe_unused]] const bool kProvided = provide_device_network(&kNetwork);

}  // namespace nvshmem_leaders
}  // namespace gb::mg
