// multinode.hierarchical: a device-side barrier inside each node (the push algorithm
// over the node's GPUs), one leader GPU per node crossing the network, then the leader releases
// its node. The network hop: network=0, the leader GPU's host proxy (MPI on the node leaders'
// communicator, on the main thread; detail/node_session.cuh); network=1, NVSHMEM signals that
// the leader GPUs send each other from the device (nvshmem_leaders.cu, in a build with
// NVSHMEM). detail/node_gather.cuh says how a crossing goes. mpi mode only: one rank per GPU.
#include <memory>

#include "core/faults.hpp"
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"
#include "multinode/detail/node_refusals.hpp"
#include "multinode/detail/node_session.cuh"
#include "multinode/device_network.hpp"

namespace gb::mg {
namespace {

// The point's session, of the point's network variant (a State resource).
class NodeCrossingsHolder {
 public:
  NodeCrossingsHolder(const RunContext& ctx, const Team& team, const Point& p)
      : session_(p.choice("network", Network::host_proxy) == Network::device_initiated
                     ? device_network()->open(ctx, team, p)
                     : std::make_unique<NodeSession>(ctx, team, p)) {}
  NodeCrossings& get() const { return *session_; }

 private:
  std::unique_ptr<NodeCrossings> session_;
};

class NodeHierarchicalBarrier final : public DeviceMethodBase {
 public:
  NodeHierarchicalBarrier()
      : DeviceMethodBase(
            {.name = NodeHierarchical::name,
             .level = Level::multi_node,
             .description =
                 "the GPUs of each node gather as multigpu.device.push does, the node's leader GPU "
                 "crosses the network, then releases its node. network=device-initiated uses "
                 "NVSHMEM (dissemination, nvshmemx_signal_op; built with NVSHMEM only; over "
                 "InfiniBand with IBGDA or NVSHMEM's proxy, over NVLink between simulated nodes). "
                 "mpi mode only; GPUBARRIER_TEST_RANKS_AS_NODES=k makes every k ranks a node on "
                 "one machine (test only)",
             .axes = method_axes()}) {}
  Requirements requirements() const override {
    Requirements r = DeviceMethodBase::requirements();
    r.threads_mode = false;  // the proxy's MPI calls need one rank per GPU
    return r;
  }
  static std::vector<Axis> method_axes() {
    std::vector<Axis> axes = common_axes();
    axes.push_back(
        {"network",
         {0, 1},
         {{Network::host_proxy, "host-proxy",
           "the node leaders' host threads cross the network (MPI_Barrier over host-mapped "
           "words)"},
          {Network::device_initiated, "device-initiated",
           "the leader GPUs signal each other with NVSHMEM"}}});
    axes.push_back({"fault", {0}, faults::device_fault_names(Fault::absent)});
    return axes;
  }

  // Unlike the single-node device barriers, any number of nodes.
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;  // no GPU: say that first
    if (!ctx.launch.under_mpi) return Usability::no("one rank per GPU: run under mpirun/srun");
    return team_usable(ctx, requirements());
  }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return agree(ctx, check(ctx, p));
  }

  Verification verify(State& state) override {
    NodeCrossings* s = session(state);
    if (!s) return {};
    s->set_checking(true);
    s->run(kVerifyRounds);
    const std::vector<double> bad = s->problems();
    if (bad[1] > 0) return Verification::timed_out(s->timeout_detail());
    if (bad[0] > 0 || bad[2] > 0 || bad[NodeCrossings::kEarly] > 0)
      return Verification::failed(stale_detail(bad, kVerifyRounds) + " among a node's GPUs, " +
                                  std::to_string(static_cast<long>(bad[NodeCrossings::kEarly])) +
                                  " passes before every node had arrived (the network check)");
    return Verification::passed();
  }

  std::vector<Measurement> measure(State& state) override {
    NodeCrossings* s = session(state);
    if (!s) return {};
    if (state.point().choice("fault", Fault::none) == Fault::skip_wait) {
      const std::vector<double> bad = s->problems();
      std::vector<Measurement> rows =
          caught_rows(bad, kVerifyRounds, static_cast<long>(Fault::skip_wait));
      Measurement early = rows.front();
      early.metric = Metric::check_early_release;
      early.value = bad[NodeCrossings::kEarly] * 1e6 / static_cast<double>(kVerifyRounds);
      early.note =
          "test hook fault=1: " + std::to_string(static_cast<long>(bad[NodeCrossings::kEarly])) +
          " passes before every node had arrived in " + std::to_string(kVerifyRounds) +
          " crossings";
      rows.push_back(early);
      return rows;
    }
    s->set_checking(false);
    Measurement m = measure_crossings(state.ctx(), team_of(state), *s);
    const Team& team = team_of(state);
    m.note += " on " + std::to_string(team.nodes()) + " node(s); " + s->network_note();
    // Simulated nodes skip the MNNVL refusal; the note still shows what the probe said.
    if (state.ctx().launch.simulated_nodes) {
      const std::string fabric = fabric_problem(state.ctx());
      m.note += "; MNNVL check (not applied to simulated nodes): " +
                (fabric.empty() ? std::string("the NVLink fabric ends at the node") : fabric);
    }
    return {m};
  }

 private:
  // The point's session; null (and the point skipped with the reason) where network=1's library
  // finds no way between the ranks.
  static NodeCrossings* session(State& state) {
    if (state.skipped()) return nullptr;
    try {
      return &state.resource<NodeCrossingsHolder>(state.ctx(), team_of(state), state.point()).get();
    } catch (const NetworkUnavailable& e) {
      state.skip(e.what());
      return nullptr;
    }
  }

  static Usability check(const RunContext& ctx, const Point& p) {
    const Network network = p.choice("network", Network::host_proxy);
    if (p.choice("fault", Fault::none) == Fault::absent && ctx.launch.size < 2)
      return Usability::no(
          "fault=2 keeps the last rank out of the barriers: it needs 2 or more "
          "ranks (with one, no barrier is left to miss)");
    if (std::string why = fabric_refusal(ctx); !why.empty()) return Usability::no(why);
    const void* kernel = reinterpret_cast<const void*>(barrier_kernel<NodeHierarchical>);
    if (network == Network::device_initiated) {
      const DeviceNetwork* net = device_network();
      if (!net) return Usability::no(without_device_network());
      if (std::string why = net->problem(ctx, p); !why.empty()) return Usability::no(why);
      kernel = net->kernel;
    }
    return launchable(ctx, p, kernel, Span::node);
  }
};

}  // namespace
}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::NodeHierarchicalBarrier)
