// gpu.cluster.arrive-wait: the split cluster barrier, barrier_arrive() then barrier_wait(), back
// to back. It shows what the split form costs when nothing is overlapped between the two halves,
// to compare with gpu.cluster.sync row by row (sm_90, clock technique).
#include "cluster/detail/cluster_barrier.cuh"
#include "core/registry.hpp"

namespace gb {
namespace {

using cluster_detail::ClusterBarrier;

class ClusterArriveWait final
    : public cluster_detail::ClusterBarrierMethod<ClusterBarrier::arrive_wait> {
 public:
  std::string_view name() const override { return "gpu.cluster.arrive-wait"; }
  std::string_view description() const override {
    return "cluster barrier_arrive() + barrier_wait() latency in one cluster and throughput in "
           "cluster barriers/us for the whole GPU over blocks/SM (clock technique, sm_90)";
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::ClusterArriveWait)
