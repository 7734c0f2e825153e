// reduction.multi.nccl: the array spread over the team's GPUs (multi_reduction.cuh); each GPU sums
// its share in one cooperative kernel into a double of its own, then NCCL reduces the N partial
// sums (one double per GPU, so that NCCL's part is its synchronisation, as host.nccl.allreduce
// measures it for gpubarrier_tools/cli/model.py): variant 0 = ncclAllReduce (every GPU gets the total),
// 1 = ncclReduce to GPU 0. The shares' sums, the collective and a stream wait are one step.
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "reduction/multi_reduction.cuh"
#include "runtime/nccl_check.hpp"
#include "runtime/nccl_comm.hpp"

namespace gb::reduction {
namespace {

enum class Collective { allreduce = 0, reduce = 1 };

class NcclSession {
 public:
  NcclSession(const RunContext&, const mg::Team& team, Shares& shares, const Point& p)
      : team_(team),
        shares_(shares),
        collective_(p.choice<Collective>("variant"))
#ifdef GPUBARRIER_HAVE_NCCL
        ,
        comms_(team)
#endif
  {
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      partials_.push_back(std::make_unique<DeviceBuffer<double>>(1));
    }
  }

  // The collective itself is not guarded: a failed member must still join it (as in
  // host.nccl.allreduce; core/agreement.hpp).
  void reduce(int l) {
    const cudaStream_t s = team_.stream(l);
    double* partial = partials_[l]->get();
    double* out = shares_.input(l).out.get();
    team_.guard(l, [&] { shares_.launch_share_sum(l, partial, s); });
#ifdef GPUBARRIER_HAVE_NCCL
    if (collective_ == Collective::allreduce)
      GB_NCCL_CHECK(ncclAllReduce(partial, out, 1, ncclDouble, ncclSum, comms_.at(l), s));
    else
      GB_NCCL_CHECK(ncclReduce(partial, out, 1, ncclDouble, ncclSum, 0, comms_.at(l), s));
#endif
    team_.guard(l, [&] { GB_CUDA_CHECK(cudaStreamSynchronize(s)); });
  }

  // NCCL's own waits carry no watchdog of the session's: none gives up.
  std::string expired() const {
    return {};
  }
  std::string note() const {
    return collective_ == Collective::allreduce ? "ncclAllReduce of the partial sums"
                                                : "ncclReduce of the partial sums to GPU 0";
  }

 private:
  const mg::Team& team_;
  const Shares& shares_;
  Collective collective_;
#ifdef GPUBARRIER_HAVE_NCCL
  mg::NcclComms comms_;
#endif
  std::vector<std::unique_ptr<DeviceBuffer<double>>> partials_;  // one double per local member
};

class NcclReduction final : public MultiReduction<NcclSession> {
 public:
  NcclReduction()
      : MultiReduction<NcclSession>(
            {.name = "reduction.multi.nccl",
             .level = Level::multi_gpu,
             .description = "sum of a double array spread over the GPUs (bytes = the whole array): "
                            "each GPU sums its share (cooperative kernel), NCCL reduces the "
                            "partial sums (host-loop); gpu_count 0 = all given",
             .axes = multi_axes(variant_axes())}) {}
  Requirements requirements() const override {
    Requirements r = Requirements::gpu_team(true, true);
    r.nccl = true;
    return r;
  }

 protected:
  static std::vector<Axis> variant_axes() {
    return {{"variant",
             {0, 1},
             {{Collective::allreduce, "allreduce", "ncclAllReduce: every GPU gets the total"},
              {Collective::reduce, "reduce", "ncclReduce: GPU 0 gets the total"}}}};
  }
};

}  // namespace
}  // namespace gb::reduction

GB_REGISTER_METHOD(gb::reduction::NcclReduction)
