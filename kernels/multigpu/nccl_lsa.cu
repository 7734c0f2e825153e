// multigpu.nccl.lsa: NCCL's own device-side barrier (the device API of NCCL >= 2.28:
// ncclLsaBarrierSession over the LSA team, multimem off) in a persistent cooperative kernel on
// every GPU, differential technique. Memory, stamp check and timing are those of the
// multigpu.device.* methods (detail/device_method.cuh); only the crossing is NCCL's.
//
// One crossing is grid.sync() followed by every block's LSA sync. NCCL's LSA barrier number i
// joins only the blocks that use number i on every GPU (one barrier per CTA, lsaBarrierCount =
// blocks per GPU, index blockIdx.x, as NCCL's documentation prescribes): alone, that is one
// barrier per block column, not one across the grid. With the grid barrier in front it is a
// barrier of every block of every GPU: block b of GPU g leaves only after (1) its grid.sync, so
// every block of g has arrived, and (2) its LSA sync, so block b of every other GPU h has reached
// its LSA sync, which b does only after h's grid.sync, i.e. after every block of h has arrived.
// The same chain orders memory: a block's writes reach its GPU's grid barrier (GPU scope), then
// its column's NCCL signal, a system-scope release store that the peer's acquire load observes
// (ordering 0). Orderings 1 and 2 pass memory_order_relaxed to NCCL and fence at system scope
// (seq_cst, acq_rel) in every thread around the sync instead (NCCL chooses which threads signal
// and poll).
//
// No %globaltimer watchdog reaches inside: NCCL's wait loop, like CUDA's grid.sync, spins without
// a limit. Cooperative launch keeps every block resident and every GPU crosses equally often, so
// no configuration waits for an absent block; there is no `fault` axis (a GPU that skipped the
// barrier would hang its peers for good). The host waits with a deadline instead (--watchdog +
// 1 ms per crossing): past it the row is `timeout`, the GPU is left to the stuck kernel and this
// method skips it from then on (runtime/deadline_run.cuh).
#include <cooperative_groups.h>

#include <memory>
#include <string>
#include <utility>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/unbuilt.hpp"
#include "multigpu/frame/device_barrier.cuh"
#include "multigpu/nccl_dev_comm.hpp"
#include "runtime/deadline_run.cuh"

namespace gb {
namespace {

#ifdef GB_HAVE_NCCL_DEVICE_API
__global__ void nccl_lsa_kernel(const __grid_constant__ mg::BarrierArgs a,
                                const __grid_constant__ ncclDevComm comm) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const bool relaxed = mg::fenced(a.ordering);
  const cuda::memory_order order =
      relaxed ? cuda::memory_order_relaxed : cuda::memory_order_acq_rel;
  // Multimem stays off: the session's default, and the device communicator has none.
  ncclLsaBarrierSession<ncclCoopCta> lsa(ncclCoopCta(), comm, ncclTeamTagLsa(), blockIdx.x);
  mg::crossings(a, [&](mg::Word) {
    grid.sync();
    mg::fence_if_relaxed(a.ordering);
    lsa.sync(ncclCoopCta(), order);
    if (relaxed) {
      mg::fence_if_relaxed(a.ordering);  // after the polls, in the threads that made them ...
      __syncthreads();                   // ... before any thread of the block reads on
    }
    return true;
  });
}

// One configuration: communicators, device communicators with one LSA barrier per block, and the
// shared barrier memory, on this process's GPUs. A State resource: verify() and measure() share it.
class LsaSession {
 public:
  // Collective; throws mg::NcclDeviceUnsupported when NCCL gives no device communicator.
  LsaSession(const RunContext& ctx, const mg::Team& team, const Point& p)
      : team_(team),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(mg::blocks_per_gpu(team, p)),
        comms_(std::make_unique<mg::NcclComms>(team)),
        devs_(std::make_unique<mg::NcclDevComms>(ctx, team, *comms_, blocks_)),
        mem_(std::make_unique<mg::BarrierMemory>(ctx, team, p, blocks_, 0)),
        deadline_(ctx, team, *mem_, "NCCL's barrier") {}

  ~LsaSession() {
    if (!deadline_.stuck()) return;
    // The kernel still runs on these: tearing them down would wait for it forever.
    mem_.release();
    devs_.release();
    comms_.release();
  }
  LsaSession(const LsaSession&) = delete;
  LsaSession& operator=(const LsaSession&) = delete;

  void set_checking(bool on) { mem_->set_checking(on); }

  double run(long reps) {
    return deadline_.run(reps, [&](int l, mg::BarrierArgs& a) {
      void* params[] = {&a, &devs_->at(l)};
      GB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(nccl_lsa_kernel),
                                                blocks_, threads_, params, 0, team_.stream(l)));
    });
  }

  std::vector<double> problems() const { return deadline_.problems(); }
  std::string timeout_detail() const { return deadline_.timeout_detail(); }
  int blocks() const { return blocks_; }

 private:
  const mg::Team& team_;
  int threads_;
  int blocks_;
  std::unique_ptr<mg::NcclComms> comms_;
  std::unique_ptr<mg::NcclDevComms> devs_;
  std::unique_ptr<mg::BarrierMemory> mem_;
  mg::DeadlineRun deadline_;
};
using LsaMethod = mg::DeviceMethodBase;
#else
using LsaMethod = Unbuilt<mg::DeviceMethodBase>;  // no kernel or session above to measure with
#endif

class NcclLsaBarrier final : public LsaMethod {
 public:
  NcclLsaBarrier()
      : LsaMethod(
            {.name = "multigpu.nccl.lsa",
             .level = Level::multi_gpu,
             .description = "NCCL's device-side barrier (NCCL >= 2.28 device API): grid.sync, then "
                            "every block's ncclLsaBarrierSession::sync (LSA team, barrier index = "
                            "block, multimem off); no watchdog inside NCCL's spin, a host-side "
                            "deadline instead. gpu_count 0 = all given",
             .axes = common_axes()}) {}
  Requirements requirements() const override {
    Requirements r = DeviceMethodBase::requirements();
    r.nccl = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = DeviceMethodBase::usable(ctx); !u.ok) return u;
#ifdef GB_HAVE_NCCL_DEVICE_API
    return Usability::yes();
#elif defined(GPUBARRIER_HAVE_NCCL)
    return Usability::no("gpubarrier was built with the headers of NCCL " +
                         std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) +
                         ", which have no device API (nccl_device.h, NCCL >= 2.28)");
#else  // Method::usable() has said so already
    return Usability::no("gpubarrier was built without NCCL");
#endif
  }

#ifdef GB_HAVE_NCCL_DEVICE_API
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const std::vector<int> local =
        ctx.launch.under_mpi ? std::vector<int>{ctx.gpus.front()} : ctx.gpus;
    if (std::string why = mg::stuck_problem(local); !why.empty())
      return mg::agree(ctx, Usability::no(why));
    return mg::agree(ctx, launchable(ctx, p, reinterpret_cast<const void*>(nccl_lsa_kernel)));
  }

  Verification verify(State& state) override {
    LsaSession* s = session(state);
    if (!s) return {};
    s->set_checking(true);
    return mg::verify_crossings(*s);
  }

  std::vector<Measurement> measure(State& state) override {
    LsaSession* s = session(state);
    if (!s) return {};
    s->set_checking(false);
    return {mg::measure_crossings(state.ctx(), mg::team_of(state), *s)};
  }

 private:
  // The point's session; null (and the point skipped with NCCL's reason) where NCCL gives no
  // device communicator.
  static LsaSession* session(State& state) {
    if (state.skipped()) return nullptr;
    try {
      return &state.resource<LsaSession>(state.ctx(), mg::team_of(state), state.point());
    } catch (const mg::NcclDeviceUnsupported& e) {
      state.skip(e.what());
      return nullptr;
    }
  }
#endif
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::NcclLsaBarrier)
