// A cluster barrier as a file under kernels/cluster/ holds it (kernels/cluster/cluster_sync.cu),
// for test_compile_fail.py: as it stands it registers; each case below breaks it one way, and the
// ClusterBarrier concept (cluster/detail/cluster_barrier.cuh) must refuse it.
// CASE misspelt_info: "CompileFailCluster" "concept ClusterBarrier"
// CASE sync_without_cluster: "CompileFailCluster" "concept ClusterBarrier"
#include "cluster/detail/cluster_barrier.cuh"
#include "core/registry.hpp"

namespace gb::cluster {

struct CompileFailCluster {
#if defined(GB_CASE_MISSPELT_INFO)
  static inline const MethodInfo infos{
#else
  static inline const MethodInfo info{
#endif
      .name = "test.cluster.compile-fail",
      .description = "cg::this_cluster().sync(), for a compile-time test (clock technique)",
      .timed = {{.instruction = "UCGABAR_WAIT"}}};
#if defined(GB_CASE_SYNC_WITHOUT_CLUSTER)
  __device__ static void sync() { __syncthreads(); }
#else
  template <class Cluster>
  __device__ static void sync(const Cluster& cluster) {
    cluster.sync();
  }
#endif
};

}  // namespace gb::cluster

GB_REGISTER_METHOD(gb::cluster_detail::ClusterBarrierMethod<gb::cluster::CompileFailCluster>)
