// Where multinode.hierarchical finds its device-initiated network variant (network=1): provided
// by the NVSHMEM target (nvshmem_leaders.cu) during static initialisation, absent in a build
// without NVSHMEM, which says why.
#include "multinode/device_network.hpp"

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

std::string without_device_network() {
  return "network=1 (device-initiated signals between the node leaders' GPUs) is NVSHMEM's: "
         "gpubarrier was built without NVSHMEM (scripts/setup with GPUBARRIER_WITH_NVSHMEM=AUTO "
         "or ON unpacks PyPI's nvidia-nvshmem-cu13)";
}

}  // namespace gb::mg
