// gpu.cluster.sync: cg::this_cluster().sync() across the blocks of a thread-block cluster (sm_90),
// latency with one cluster and whole-GPU throughput over blocks/SM, clock technique; kernels in
// detail/. The reference of results/README.md (2 x H200): ~350 cycles at 128 threads.
#include "cluster/detail/cluster_barrier.cuh"
#include "core/registry.hpp"

namespace gb {
namespace {

using cluster_detail::ClusterBarrier;

class ClusterSync final : public cluster_detail::ClusterBarrierMethod<ClusterBarrier::sync> {
 public:
  std::string_view name() const override { return "gpu.cluster.sync"; }
  std::string_view description() const override {
    return "cg::this_cluster().sync() latency in one cluster and throughput in cluster "
           "barriers/us for the whole GPU over blocks/SM (clock technique, sm_90)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::ClusterSync)
