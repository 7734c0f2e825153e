// gpu.cluster.sync: cg::this_cluster().sync() across the blocks of a thread-block cluster (sm_90),
// latency with one cluster and whole-GPU throughput over blocks/SM, clock technique; kernels in
// detail/. The reference of results/README.md (2 x H200): ~350 cycles at 128 threads.
#include "cluster/detail/cluster_barrier.cuh"
#include "core/registry.hpp"

namespace gb::cluster {

struct ClusterSync {
  static inline const MethodInfo info{
      .name = "gpu.cluster.sync",
      .description =
          "cg::this_cluster().sync() latency in one cluster and throughput in cluster barriers/us "
          "for the whole GPU over blocks/SM (clock technique, sm_90)",
      .timed = {{.instruction = "UCGABAR_WAIT"}}};
  template <class Cluster>
  __device__ static void sync(const Cluster& cluster) {
    cluster.sync();
  }
};

}  // namespace gb::cluster

GB_REGISTER_METHOD(gb::cluster_detail::ClusterBarrierMethod<gb::cluster::ClusterSync>)
