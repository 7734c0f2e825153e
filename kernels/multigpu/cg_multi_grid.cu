// multigpu.cg.multi-grid: cooperative_groups::this_multi_grid().sync() in a kernel launched with
// cudaLaunchCooperativeKernelMultiDevice (seed 002 section 4.3.2). Deprecated since CUDA 11.3 and
// removed in CUDA 13: built only with an older toolkit, otherwise a skipped row says so.
#include <cooperative_groups.h>

#include <chrono>

#include "core/cuda_check.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "team/peer_memory.hpp"
#include "team/team.hpp"

namespace gb {
namespace {

#if CUDART_VERSION < 13000
constexpr int kMembers = 64;  // topo::kMaxGpus

struct MultiGridArgs {
  unsigned* stamps[kMembers];  // each member's per-block stamps; null while timing
  unsigned* stale;             // this GPU's count of stale stamps
  long reps;
};

__global__ void multi_grid_kernel(MultiGridArgs a) {
  cooperative_groups::multi_grid_group all = cooperative_groups::this_multi_grid();
  const unsigned me = all.grid_rank(), members = all.num_grids();
  for (long r = 1; r <= a.reps; ++r) {
    if (a.stamps[0] && threadIdx.x == 0)
      *static_cast<volatile unsigned*>(a.stamps[me] + blockIdx.x) = static_cast<unsigned>(r);
    all.sync();
    if (!a.stamps[0]) continue;
    unsigned bad = 0;
    for (unsigned i = threadIdx.x; i < members * gridDim.x; i += blockDim.x)
      bad += static_cast<volatile unsigned*>(a.stamps[i / gridDim.x])[i % gridDim.x] < r;
    if (bad) atomicAdd(a.stale, bad);
  }
}
#endif

class CgMultiGrid final : public Method {
 public:
  std::string_view name() const override { return "multigpu.cg.multi-grid"; }
  Level level() const override { return Level::multi_gpu; }
  std::string_view description() const override {
    return "this_multi_grid().sync() after cudaLaunchCooperativeKernelMultiDevice (CUDA < 13 "
           "builds only; threads mode, differential); gpu_count 0 = all given";
  }
  std::vector<Axis> axes() const override {
    return {{kGpuCountAxis, {0}}, {"blocks_per_sm", {1}}, {"threads_per_block", {128}}};
  }
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.peer_access = true;
    r.threads_mode = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
#if CUDART_VERSION >= 13000
    return Usability::no(
        "cudaLaunchCooperativeKernelMultiDevice and this_multi_grid() were "
        "removed in CUDA 13 (deprecated since 11.3): build with CUDA 11/12");
#else
    return mg::team_usable(ctx, requirements());
#endif
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    if (std::string why = mg::peer_access_problem(ctx.gpus); !why.empty())
      return Usability::no(why);
    return Usability::yes();
  }

#if CUDART_VERSION < 13000
  Verification verify(State& state) override {
    const Point& p = state.point();
    const mg::Team& team = mg::team_of(state);
    const int blocks = blocks_of(team, p);
    const mg::PeerMemory mem(team, (blocks + 1) * sizeof(unsigned));
    std::vector<MultiGridArgs> args(team.local_count());
    for (int l = 0; l < team.local_count(); ++l) {
      for (int m = 0; m < team.size(); ++m) args[l].stamps[m] = stamps(mem, l, m);
      args[l].stale = stamps(mem, l, team.member(l)) + blocks;
      args[l].reps = 16;
    }
    launch(team, args, blocks, p);
    unsigned total = 0;
    for (int l = 0; l < team.local_count(); ++l) {
      unsigned v = 0;
      GB_CUDA_CHECK(cudaMemcpy(&v, args[l].stale, sizeof v, cudaMemcpyDeviceToHost));
      total += v;
    }
    if (total) return Verification::failed(std::to_string(total) + " stale stamps after sync");
    return Verification::passed();
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const mg::Team& team = mg::team_of(state);
    const int blocks = blocks_of(team, p);
    std::vector<MultiGridArgs> args(team.local_count());
    auto run = [&](long reps) {
      for (auto& a : args) a.reps = reps;
      const auto t0 = std::chrono::steady_clock::now();
      launch(team, args, blocks, p);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    return {differential(ctx, run)};
  }
#else
  std::vector<Measurement> measure(State&) override {
    return {};
  }
#endif

 private:
#if CUDART_VERSION < 13000
  static unsigned* stamps(const mg::PeerMemory& mem, int l, int m) {
    return static_cast<unsigned*>(mem.at(l, m));
  }
  static int blocks_of(const mg::Team& team, const Point& p) {
    int sms = 0;
    GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(0)));
    return static_cast<int>(p.at("blocks_per_sm")) * sms;
  }
  static void launch(const mg::Team& team, std::vector<MultiGridArgs>& args, int blocks,
                     const Point& p) {
    std::vector<void*> arg_ptrs(team.local_count());
    std::vector<cudaLaunchParams> params(team.local_count());
    for (int l = 0; l < team.local_count(); ++l) {
      arg_ptrs[l] = &args[l];
      params[l] = {reinterpret_cast<void*>(multi_grid_kernel),
                   dim3(blocks),
                   dim3(static_cast<unsigned>(p.at("threads_per_block"))),
                   &arg_ptrs[l],
                   0,
                   team.stream(l)};
    }
    GB_CUDA_CHECK(cudaLaunchCooperativeKernelMultiDevice(params.data(), team.local_count(), 0));
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l)));
    }
  }
#endif
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CgMultiGrid)
