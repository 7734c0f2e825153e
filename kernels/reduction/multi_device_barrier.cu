// reduction.multi.device-barrier: the array spread over the team's GPUs (kernels/reduction/
// multi_reduction.cuh), summed as the study's Fig. 13 does: one persistent cooperative kernel per
// GPU sums its share over its grid (grid.sync()), block 0 writes the share's sum into its slot in
// GPU 0's memory over peer access (CUDA IPC in mpi mode), every block of every GPU crosses one
// device-side multi-GPU barrier (the push algorithm, release/acquire ordering: the barrier
// publishes the slot writes), and block 0 of GPU 0 sums the slots. One launch per GPU per
// reduction; gpubarrier_tools/cli/model.py pairs it with the multigpu.device.* barriers.
#include <algorithm>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"
#include "multigpu/push.cuh"
#include "reduction/multi_reduction.cuh"
#include "runtime/barrier_memory.cuh"

namespace gb::mg {
namespace {

template <class A>
__global__ void reduction_kernel(const __grid_constant__ BarrierArgs a,
                                 const __grid_constant__ typename A::Args x, const double* data,
                                 std::uint64_t n, double* partials, double* slots, double* out) {
  reduction::grid_sum(data, n, partials, slots + a.member);
  if (!A::cross(a, x, a.epoch0 + 1)) return;
  if (a.member == 0 && blockIdx.x == 0)
    reduction::block_total(slots, static_cast<std::uint64_t>(a.members), out);
}

// One block shape for every GPU (1024 threads, as the single-GPU reductions) and release/acquire
// ordering; BarrierMemory reads them from a point.
inline Point barrier_shape() {
  return Point({{"threads_per_block", reduction::kThreads}, {"ordering", 0}});
}

// The resident grid of reduction_kernel<A> on local member l, within the partial sums' room.
template <class A>
int grid_of(const Team& team, const reduction::Shares& shares, int l) {
  GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
  return std::min(reduction::resident_blocks(reduction_kernel<A>, reduction::kThreads),
                  shares.blocks(l));
}

template <class A>
class BarrierReduction {
  static_assert(A::traits.host_bytes == 0, "the reduction gives its barrier no host memory");

 public:
  BarrierReduction(const RunContext& ctx, const Team& team, reduction::Shares& shares, const Point&)
      : ctx_(ctx),
        team_(team),
        shares_(shares),
        slots_(team),
        blocks_(blocks(team, shares)),
        mem_(ctx, team, barrier_shape(), *std::max_element(blocks_.begin(), blocks_.end()),
             words_bytes<A>(blocks_.front(), team.size())),
        epochs_(static_cast<std::size_t>(team.local_count()), 0) {
    const Point shape = barrier_shape();
    const AlgoSetup setup{ctx, team, shape, blocks_.front(), nullptr};
    for (int l = 0; l < team.local_count(); ++l) args_.push_back(A::args(setup, l));
  }

  void reduce(int l) {
    team_.guard(l, [&] {
      BarrierArgs a = mem_.args(l);
      a.reps = 1;
      a.epoch0 = epochs_[l]++;
      const reduction::Input& in = shares_.input(l);
      const double* data = in.data.get();
      std::uint64_t n = in.n;
      double* partials = shares_.partials(l);
      double* slots = slots_.at(l);
      double* out = in.out.get();
      void* params[] = {&a, &args_[l], &data, &n, &partials, &slots, &out};
      GB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(reduction_kernel<A>),
                                                blocks_[l], reduction::kThreads, params, 0,
                                                team_.stream(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team_.stream(l)));
    });
  }

  // Collective: non-empty once a spin of any GPU gave up.
  std::string expired() const {
    if (mem_.problems()[1] == 0) return {};
    return "watchdog (" + std::to_string(ctx_.options.watchdog_s) +
           " s) expired: a GPU never reached the barrier";
  }
  std::string note() const { return std::string(A::info.name) + " barrier, release/acquire"; }

 private:
  static std::vector<int> blocks(const Team& team, const reduction::Shares& shares) {
    std::vector<int> b;
    for (int l = 0; l < team.local_count(); ++l) b.push_back(grid_of<A>(team, shares, l));
    return b;
  }

  const RunContext& ctx_;
  const Team& team_;
  const reduction::Shares& shares_;
  reduction::Slots slots_;
  std::vector<int> blocks_;
  BarrierMemory mem_;
  std::vector<Word> epochs_;  // barriers this member crossed on mem_
  std::vector<typename A::Args> args_;
};

class DeviceBarrierReduction final : public reduction::MultiReduction<BarrierReduction<Push>> {
 public:
  DeviceBarrierReduction()
      : reduction::MultiReduction<BarrierReduction<Push>>(
            {.name = "reduction.multi.device-barrier",
             .level = Level::multi_gpu,
             .description =
                 "sum of a double array spread over the GPUs (bytes = the whole array): each GPU's "
                 "cooperative kernel sums its share (grid.sync), writes it into GPU 0's memory "
                 "over peer access, crosses the push device barrier, GPU 0 sums the partials (the "
                 "study's Fig. 13; host-loop); gpu_count 0 = all given",
             .axes = reduction::multi_axes({})}) {}
  Requirements requirements() const override { return device_requirements(); }

 protected:
  Usability point_feasible(const RunContext& ctx, const Point&) const override {
    const long members =
        ctx.launch.under_mpi ? ctx.launch.size : static_cast<long>(ctx.gpus.size());
    if (members > kMaxMembers)
      return Usability::no("at most " + std::to_string(kMaxMembers) + " GPUs");
    return Usability::yes();
  }
};

}  // namespace
}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrierReduction)
