#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "topology/cuda_absence.hpp"
#include "topology/gpu_uuid.hpp"
#include "topology/probes.hpp"

namespace gb::topo::detail {
namespace {

std::string unavailable(cudaError_t err) {
  return "unavailable: " + cuda_unavailable_reason(err);
}

}  // namespace

// GPU indices are CUDA ordinals, as every method addresses them; they match nvidia-smi's
// numbering when CUDA_DEVICE_ORDER=PCI_BUS_ID or all GPUs are of one model.
void probe_cuda(Topology& topo) {
  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    // Clears the error so that later CUDA calls elsewhere do not report it again.
    cudaGetLastError();
    topo.probes.emplace_back("cuda", unavailable(err));
    return;
  }
  count = std::min(count, kMaxGpus);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (const cudaError_t err = cudaGetDeviceProperties(&prop, d); err != cudaSuccess) {
      topo.gpus.clear();
      topo.probes.emplace_back("cuda", unavailable(err));
      return;
    }
    char bus_id[32] = {};
    Gpu gpu;
    gpu.index = d;
    gpu.name = prop.name;
    gpu.uuid = format_gpu_uuid(prop.uuid.bytes);
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, d) == cudaSuccess)
      gpu.pci_bus_id = normalize_bus_id(bus_id);
    topo.gpus.push_back(std::move(gpu));
  }
  topo.links.assign(count, std::vector<Link>(count));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      Link& link = topo.links[a][b];
      if (a == b) {
        link.path = PathType::X;
        continue;
      }
      int value = 0;
      if (cudaDeviceCanAccessPeer(&value, a, b) == cudaSuccess) link.p2p_access = value != 0;
      if (cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrNativeAtomicSupported, a, b) ==
          cudaSuccess)
        link.p2p_atomics = value != 0;
      if (cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
        link.p2p_perf_rank = value;
    }
  }
  topo.probes.emplace_back("cuda", "ok");
}

}  // namespace gb::topo::detail
