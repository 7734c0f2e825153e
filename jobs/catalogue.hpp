// What the job generator needs to know about each registered method: the launch modes it runs
// in, how many GPUs it needs, and whether it may span nodes. All of it follows from the method's
// Requirements, so a new method is planned correctly without touching the generator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_mode.hpp"
#include "core/method.hpp"

namespace gb::jobs {

struct MethodInfo {
  std::string name;
  Requirements req;
  std::vector<Axis> axes;
  Level level = Level::host;

  // single: one process, no team (single-GPU and host-only methods); threads: one process, one
  // thread per GPU; mpi: one rank per GPU (or per slot, for host-only rank methods).
  bool runs_in(Mode mode) const;
  bool needs_gpu() const { return req.min_gpus > 0; }
  // A barrier among ranks that measures nothing with one rank (MPI_Barrier alone).
  bool needs_two_ranks() const { return req.mpi_launch && !needs_gpu(); }
  // Why the method cannot span nodes, or nullopt when it can. Device-side barriers reach their
  // peers over NVLink/PCIe inside one node, and NCCL across nodes is a later issue: only
  // host-side barriers among ranks and the multi-node level (multinode.*: peers inside each
  // node, node leaders across the network) span nodes for now.
  std::optional<std::string> why_not_across_nodes() const;
  const Axis* axis(std::string_view axis_name) const;
};

using Catalogue = std::vector<MethodInfo>;

// Every method of the registry, sorted by name.
Catalogue registered_methods();

const MethodInfo* find_method(const Catalogue& catalogue, std::string_view name);

}  // namespace gb::jobs
