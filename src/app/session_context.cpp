#include "app/session_context.hpp"

#include <algorithm>
#include <memory>

#include "app/context.hpp"
#include "runtime/node_layout.hpp"
#include "topology/probe.hpp"

namespace gb::cli {
namespace {

// The node name of every rank, and which ranks share a node (runtime/node_layout.hpp): by name and
// by shared-memory domain, since two slurmds on one host (the local test cluster) share memory
// but are two nodes to Slurm. Simulated nodes (test only) are named by rank (one rank per node)
// or by simulated node, and say so in the system column.
void gather_nodes(RunContext& ctx) {
  if (!ctx.launch.under_mpi) return;
  if (const int k = ctx.launch.ranks_per_simulated_node; k > 0) {
    ctx.env.node += k == 1 ? "-rank" + std::to_string(ctx.launch.rank)
                           : "-node" + std::to_string(ctx.launch.rank / k);
    ctx.env.system += "-simulated";
  }
  ctx.env.rank_nodes = gather_strings(ctx.launch, ctx.env.node);
  const std::vector<int> domains = ctx.launch.gather(ctx.launch.shared_domain);
  std::vector<std::string> keys;
  for (std::size_t r = 0; r < ctx.env.rank_nodes.size() && r < domains.size(); ++r)
    keys.push_back(node_key(ctx.env.rank_nodes[r], domains[r]));
  ctx.launch.layout = layout_nodes(keys);
  ctx.launch.nodes = std::max(ctx.launch.nodes, ctx.launch.layout.nodes());
}

// The model and UUID of every rank's GPU (its first), in rank order like rank_gpus: an ordinal
// alone does not say which GPU of which node a rank drove.
void gather_rank_gpus(RunContext& ctx) {
  if (!ctx.launch.under_mpi) return;
  GpuIdentity mine;
  if (!ctx.gpus.empty() && static_cast<std::size_t>(ctx.gpus.front()) < ctx.env.gpus.size())
    mine = ctx.env.gpus[static_cast<std::size_t>(ctx.gpus.front())];
  const auto models = gather_strings(ctx.launch, mine.model);
  const auto uuids = gather_strings(ctx.launch, mine.uuid);
  ctx.env.rank_gpus.clear();
  for (std::size_t r = 0; r < models.size() && r < uuids.size(); ++r)
    ctx.env.rank_gpus.push_back({models[r], uuids[r]});
}

}  // namespace

RunContext session_context(const Launch& launch, const SessionArgs& args) {
  RunContext ctx = make_context(launch, args.gpus);
  ctx.options = args.options;
  ctx.env.system = args.system;
  ctx.topology = std::make_shared<const topo::Topology>(topo::probe_local());
  gather_nodes(ctx);
  gather_rank_gpus(ctx);
  return ctx;
}

}  // namespace gb::cli
