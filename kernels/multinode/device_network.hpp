// One configuration of multinode.hierarchical on this rank, whichever network variant crosses
// between the node leaders (a State resource: verify() and measure() share it). network=0 is
// NodeSession (detail/node_session.cuh: the host proxy); network=1 comes from the NVSHMEM target
// when gpubarrier is built with NVSHMEM (nvshmem_leaders.cu), through device_network().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "errors/errors.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

class NodeCrossings {
 public:
  // Indices of problems(): BarrierMemory's three (stale stamps, expired spins, stale payload
  // words), then the check's early passes (blocks that passed before a node arrived).
  static constexpr std::size_t kEarly = 3;

  virtual ~NodeCrossings() = default;
  // Verification on (stamps, payload, late block, the network check) or off (timing).
  virtual void set_checking(bool on) = 0;
  // `reps` crossings; seconds from the launch to the end of the wait.
  virtual double run(long reps) = 0;
  // The problems seen so far, the largest per rank, indexed as above.
  virtual std::vector<double> problems() const = 0;
  virtual std::string timeout_detail() const = 0;
  // What crossed between the node leaders, for the row's note.
  virtual std::string network_note() const = 0;
  virtual int blocks() const = 0;
};

// The network variant cannot run here (its library found no way between the ranks): the point is
// skipped with the reason, on every rank.
class NetworkUnavailable : public Error {
 public:
  using Error::Error;
};

// network=1 (device-initiated signals between the node leaders), where this build has it.
struct DeviceNetwork {
  const void* kernel;  // its barrier kernel (for the launch check)
  // Why a point cannot run this variant here ("" when it can); called on every rank.
  std::string (*problem)(const RunContext& ctx, const Point& p);
  std::unique_ptr<NodeCrossings> (*open)(const RunContext& ctx, const Team& team, const Point& p);
};

// The variant this build provides, or null (built without NVSHMEM).
const DeviceNetwork* device_network();

// Called once, during static initialisation, by the target that provides network=1.
bool provide_device_network(const DeviceNetwork* network);

// Why network=1 is skipped in a build without NVSHMEM.
std::string without_device_network();

}  // namespace gb::mg
