#include "runtime/peer_atomics.hpp"

#include <cuda_runtime.h>

#include "core/cuda_check.hpp"

namespace gb::mg {

int native_peer_atomics(int from, int to) {
  int value = 0;
  GB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrNativeAtomicSupported, from, to));
  return value;
}

std::string peer_atomics_problem(const std::vector<int>& gpus, const PeerAtomicAttr& attr) {
  for (int from : gpus)
    for (int to : gpus)
      if (from != to && !attr(from, to))
        return "counts with atomics on peer memory, but GPU " + std::to_string(from) +
               " has no native atomics on GPU " + std::to_string(to) +
               "'s memory (cudaDevP2PAttrNativeAtomicSupported = 0, e.g. PCIe peers)";
  return "";
}

}  // namespace gb::mg
