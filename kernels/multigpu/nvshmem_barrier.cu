// multigpu.nvshmem.barrier: NVSHMEM's device-side barrier as a peer of the project's own,
// composed as multigpu.nccl.lsa is: in a persistent cooperative kernel on every GPU, one
// crossing is grid.sync(), then NVSHMEM's barrier across PEs in block 0 (axis `variant`), then
// grid.sync() again, so that the whole of every GPU waits. Memory, stamp and payload check and
// timing are those of the multigpu.device.* methods (frame/device_barrier.cuh); the host waits
// under a deadline (runtime/deadline_run.cuh), since no watchdog reaches inside NVSHMEM's spin.
//
// Axis `variant`: which NVSHMEM call block 0 makes (Variant below). Axis `ordering`: library =
// NVSHMEM's own ordering only; seq-cst-fence and acq-rel-fence add a system-scope fence in every
// thread before and after (what sync_all needs before the check may pass).
//
// NVSHMEM runs one PE per process: mpi mode only (mpirun -np <GPUs>). It is initialised once per
// process (src/runtime/nvshmem_runtime.hpp) and finalised at exit. It is a target of its own with
// separable compilation (-rdc), built only when the set-up found NVSHMEM
// (GPUBARRIER_WITH_NVSHMEM; cmake/Nvshmem.cmake); without it this file is a method that says so.
#include <cooperative_groups.h>

#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/unbuilt.hpp"
#include "errors/errors.hpp"
#include "multigpu/frame/device_barrier.cuh"
#include "runtime/deadline_run.cuh"

#ifdef GPUBARRIER_HAVE_NVSHMEM
#include <nvshmem.h>
#include <nvshmemx.h>

#include "runtime/nvshmem_runtime.hpp"
#endif

namespace gb {
// A named namespace: State holds the session (a template of default visibility), which a type
// of internal linkage would warn about in this -rdc target.
namespace nvshmem_barrier {

enum class Variant { barrier_all_block = 0, sync_all_block = 1, barrier_all = 2 };

#ifdef GPUBARRIER_HAVE_NVSHMEM
__global__ void nvshmem_barrier_kernel(const __grid_constant__ mg::BarrierArgs a, Variant variant) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  mg::crossings(a, [&](mg::Word) {
    mg::fence_if_relaxed(a.ordering);
    grid.sync();
    if (blockIdx.x == 0) {
      if (variant == Variant::barrier_all_block) {
        nvshmemx_barrier_all_block();
      } else if (variant == Variant::sync_all_block) {
        nvshmemx_sync_all_block();
      } else {
        if (threadIdx.x == 0) nvshmem_barrier_all();
        __syncthreads();
      }
    }
    grid.sync();
    mg::fence_if_relaxed(a.ordering);
    return true;
  });
}

// One configuration: NVSHMEM (once per process), the shared barrier memory, the deadline.
class NvshmemSession {
 public:
  NvshmemSession(const RunContext& ctx, const mg::Team& team, const Point& p)
      : runtime_(nvshmem::Runtime::get(ctx, team)),
        team_(team),
        threads_(static_cast<int>(p.at("threads_per_block"))),
        blocks_(mg::blocks_per_gpu(team, p)),
        variant_(p.choice<Variant>("variant")),
        mem_(std::make_unique<mg::BarrierMemory>(ctx, team, p, blocks_, 0)),
        deadline_(ctx, team, *mem_, "NVSHMEM's barrier") {}

  ~NvshmemSession() {
    if (!deadline_.stuck()) return;
    runtime_.mark_stuck();
    mem_.release();  // the kernel still runs on it
  }
  NvshmemSession(const NvshmemSession&) = delete;
  NvshmemSession& operator=(const NvshmemSession&) = delete;

  void set_checking(bool on) { mem_->set_checking(on); }

  double run(long reps) {
    return deadline_.run(reps, [&](int l, mg::BarrierArgs& a) {
      void* params[] = {&a, &variant_};
      const int rc = nvshmemx_collective_launch(reinterpret_cast<const void*>(nvshmem_barrier_kernel),
                                                dim3(blocks_), dim3(threads_), params, 0,
                                                team_.stream(l));
      if (rc != 0) throw Error("nvshmemx_collective_launch failed (" + std::to_string(rc) + ")");
    });
  }

  std::vector<double> problems() const { return deadline_.problems(); }
  std::string timeout_detail() const { return deadline_.timeout_detail(); }
  int blocks() const { return blocks_; }

 private:
  nvshmem::Runtime& runtime_;
  const mg::Team& team_;
  int threads_;
  int blocks_;
  Variant variant_;
  std::unique_ptr<mg::BarrierMemory> mem_;
  mg::DeadlineRun deadline_;
};
#endif

}  // namespace nvshmem_barrier

namespace {

using namespace nvshmem_barrier;  // NOLINT(google-build-using-namespace): this file's own parts

// Why NVSHMEM cannot run here ("" when it can): not built in, or not one PE per process; and the
// method's base, which measures nothing where NVSHMEM is not built in.
#ifdef GPUBARRIER_HAVE_NVSHMEM
std::string nvshmem_problem(const RunContext& ctx) {
  if (!ctx.launch.under_mpi)
    return "NVSHMEM runs one PE per process: mpi mode only (mpirun -np <GPUs> gpubarrier ...)";
  return "";
}
using NvshmemMethod = mg::DeviceMethodBase;
#else
std::string nvshmem_problem(const RunContext&) {
  return "gpubarrier was built without NVSHMEM (scripts/setup with GPUBARRIER_WITH_NVSHMEM=AUTO "
         "or ON unpacks PyPI's nvidia-nvshmem-cu13)";
}
using NvshmemMethod = Unbuilt<mg::DeviceMethodBase>;
#endif

class NvshmemBarrier final : public NvshmemMethod {
 public:
  NvshmemBarrier()
      : NvshmemMethod(
            {.name = "multigpu.nvshmem.barrier",
             .level = Level::multi_gpu,
             .description = "NVSHMEM's device-side barrier (mpi mode, one PE per rank): grid.sync, "
                            "block 0 in NVSHMEM's barrier, grid.sync; no watchdog inside NVSHMEM's "
                            "spin, a host-side deadline instead",
             .axes = method_axes()}) {}
  static std::vector<Axis> method_axes() {
    std::vector<Axis> axes = common_axes();
    // Ordering 0 adds no fence: what NVSHMEM's call promises (sync_all: nothing) is all there is.
    for (Axis& a : axes)
      if (a.name == "ordering")
        a.names.front() = {mg::Ordering::acquire_release, "library",
                           "no fence of gpubarrier's own: whatever ordering the library's "
                           "barrier promises"};
    axes.push_back(
        {"variant",
         {0, 1, 2},
         {{Variant::barrier_all_block, "barrier-all-block",
           "nvshmemx_barrier_all_block by every thread of block 0"},
          {Variant::sync_all_block, "sync-all-block",
           "nvshmemx_sync_all_block by every thread of block 0 (no memory ordering promised)"},
          {Variant::barrier_all, "barrier-all", "nvshmem_barrier_all by thread 0 of block 0"}}});
    return axes;
  }
  Requirements requirements() const override {
    Requirements r = DeviceMethodBase::requirements();
    r.threads_mode = false;  // one PE per process
    return r;
  }
  // The GPU's and the team's reasons first (as every GPU method gives them), then NVSHMEM's own.
  Usability usable(const RunContext& ctx) const override {
    const Usability base = DeviceMethodBase::usable(ctx);
    const std::string why = nvshmem_problem(ctx);
    if (why.empty()) return base;
    return Usability::no(base.ok ? why : base.reason + "; and " + why);
  }

#ifdef GPUBARRIER_HAVE_NVSHMEM
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (std::string why = mg::stuck_problem({ctx.gpus.front()}); !why.empty())
      return mg::agree(ctx, Usability::no(why));
    return mg::agree(ctx,
                     launchable(ctx, p, reinterpret_cast<const void*>(nvshmem_barrier_kernel)));
  }

  Verification verify(State& state) override {
    NvshmemSession& s = session(state);
    s.set_checking(true);
    return mg::verify_crossings(s);
  }

  std::vector<Measurement> measure(State& state) override {
    NvshmemSession& s = session(state);
    s.set_checking(false);
    return {mg::measure_crossings(state.ctx(), mg::team_of(state), s)};
  }

 private:
  static NvshmemSession& session(State& state) {
    return state.resource<NvshmemSession>(state.ctx(), mg::team_of(state), state.point());
  }
#endif
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::NvshmemBarrier)
