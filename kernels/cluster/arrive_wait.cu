// gpu.cluster.arrive-wait: the split cluster barrier, barrier_arrive() then barrier_wait(), back
// to back. It shows what the split form costs when nothing is overlapped between the two halves,
// to compare with gpu.cluster.sync row by row (sm_90, clock technique).
#include <utility>

#include "cluster/detail/cluster_barrier.cuh"
#include "core/registry.hpp"

namespace gb::cluster {

struct ArriveWait {
  static inline const MethodInfo info{
      .name = "gpu.cluster.arrive-wait",
      .description =
          "cluster barrier_arrive() + barrier_wait() latency in one cluster and throughput in "
          "cluster barriers/us for the whole GPU over blocks/SM (clock technique, sm_90)",
      .timed = {{.instruction = "UCGABAR_WAIT"}}};
  template <class Cluster>
  __device__ static void sync(const Cluster& cluster) {
    auto token = cluster.barrier_arrive();
    cluster.barrier_wait(std::move(token));
  }
};

}  // namespace gb::cluster

GB_REGISTER_METHOD(gb::cluster_detail::ClusterBarrierMethod<gb::cluster::ArriveWait>)
