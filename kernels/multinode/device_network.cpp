// Where multinode.hierarchical finds its device-initiated network variant (network=1): provided
// by the NVSHMEM target (kernels/nvshmem/leaders.cu) during static initialisation, absent in a
// build without NVSHMEM.
#include "multinode/detail/node_crossings.hpp"

namespace gb::mg {
namespace {

const DeviceNetwork*& provided() {
  static const DeviceNetwork* network = nullptr;
  return network;
}

}  // namespace

const DeviceNetwork* device_network() { return provided(); }

bool provide_device_network(const DeviceNetwork* network) {
  provided() = network;
  return true;
}

}  // namespace gb::mg
