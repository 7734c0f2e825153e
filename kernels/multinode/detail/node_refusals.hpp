// Why multinode.hierarchical cannot run a configuration, where the reason is not the kernel's: an
// NVLink fabric that spans nodes (MNNVL). The network axis's values are named here too.
#pragma once

#include <string>

#include "core/run_context.hpp"

namespace gb::mg {

// The `network` axis: 0 = host proxy (MPI on the node leaders' communicator), 1 = device-initiated
// signals between the node leaders' GPUs (NVSHMEM: kernels/multinode/nvshmem_leaders.cu).
enum class Network { host_proxy = 0, device_initiated = 1 };

// Why this rank's GPU cannot be grouped by node (topology/fabric.hpp), empty when its NVLink
// fabric (NVML) ends at the node. The probe runs once per GPU and process.
std::string fabric_problem(const RunContext& ctx);

// fabric_problem() where it decides: across real nodes only, since simulated nodes share one
// machine (and its NVLink) on purpose.
std::string fabric_refusal(const RunContext& ctx);

}  // namespace gb::mg
