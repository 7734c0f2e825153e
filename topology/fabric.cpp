#include "topology/fabric.hpp"

#include <algorithm>

namespace gb::topo {

bool spans_nodes(const FabricInfo& f) {
  const bool uuid = std::any_of(f.cluster_uuid.begin(), f.cluster_uuid.end(),
                                [](unsigned char c) { return c != 0; });
  return f.source == FabricInfo::Source::probed && f.supported &&
         f.state == kFabricStateCompleted && f.status_ok && uuid;
}

std::string node_grouping_problem(const FabricInfo& f) {
  const std::string unknown = "cannot tell whether the NVLink domain spans nodes (MNNVL): ";
  switch (f.source) {
    case FabricInfo::Source::no_nvml:
      return unknown + "built without NVML (nvml.h not found; GPUBARRIER_WITH_NVML)";
    case FabricInfo::Source::no_call:
      return unknown + "this NVML (nvml.h) has no nvmlDeviceGetGpuFabricInfoV";
    case FabricInfo::Source::failed:
      return unknown + f.detail;
    case FabricInfo::Source::probed:
      break;
  }
  if (spans_nodes(f))
    return "the NVLink domain spans nodes (MNNVL): grouping by NVLink domain is not implemented";
  return {};
}

}  // namespace gb::topo
