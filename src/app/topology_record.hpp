// The machine's topology beside every CSV that `run` and `sweep` write (`<csv>.topology.json`,
// the format of `gpubarrier topo --json`), so that a results folder says which GPUs were wired
// how, and `gpubarrier report` can show it, long after the machine is gone.
#pragma once

#include <string>

#include "topology/topology.hpp"

namespace gb::cli {

std::string topology_record_path(const std::string& csv_path);

// Written atomically; with `resume` an existing record is kept (the run it belongs to goes on).
// A record that cannot be written is a warning on stderr: the measurements matter more.
void record_topology(const std::string& csv_path, const topo::Topology& topology, bool resume);

}  // namespace gb::cli
